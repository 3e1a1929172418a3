import type { Redis } from 'ioredis';
import type { createAdapter } from '@socket.io/redis-streams-adapter';

/** How long a Redis write may hold a broadcast before this process delivers it to its own sockets anyway. */
const REDIS_WRITE_PATIENCE_MS = 500;

type AdapterFactory = ReturnType<typeof createAdapter>;

/** The adapter methods that talk to Redis on a socket's or a broadcast's behalf. */
interface RedisBackedAdapter {
  doPublish(message: unknown): Promise<unknown>;
  doPublishResponse(requester: unknown, response: unknown): Promise<unknown>;
  persistSession(session: unknown): void;
  restoreSession(pid: string, offset: string): Promise<unknown>;
  serverCount(): Promise<number>;
}

/**
 * Socket.IO's Redis streams adapter, made to keep each process serving its own sockets while
 * Redis is away. The library writes a broadcast to the stream and only then delivers it
 * locally, and its connection queues commands until Redis returns: an outage would hold every
 * broadcast, and every reconnecting client's session lookup, for as long as it lasts.
 *
 * Here nothing is written to Redis while its connection is down, and a write that hangs is
 * given up after half a second: broadcasts reach this process's sockets at once, the other
 * processes miss them until Redis is back, and reconnecting clients start a fresh session.
 * Revocations missed meanwhile are caught by the periodic session recheck (event bridge).
 */
export async function resilientStreamsAdapter(client: Redis, options: Parameters<typeof createAdapter>[1]): Promise<AdapterFactory> {
  // Loaded only with REDIS_URL, like the Redis client.
  const { createAdapter } = await import('@socket.io/redis-streams-adapter');
  const create = createAdapter(client, options);
  const whileConnected = <T>(write: () => Promise<T>): Promise<T> => {
    if (client.status !== 'ready') return Promise.reject(new Error('Redis is not connected'));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Redis did not answer in time')), REDIS_WRITE_PATIENCE_MS);
      write().then(
        (value) => (clearTimeout(timer), resolve(value)),
        (error: unknown) => (clearTimeout(timer), reject(error)),
      );
    });
  };
  // Socket.IO calls the factory with `new`, so it must be a function, not an arrow.
  return function adapterFor(namespace: Parameters<AdapterFactory>[0]) {
    const adapter = create(namespace);
    const redisBacked = adapter as unknown as RedisBackedAdapter;
    const publish = redisBacked.doPublish.bind(adapter);
    const publishResponse = redisBacked.doPublishResponse.bind(adapter);
    const persist = redisBacked.persistSession.bind(adapter);
    const restore = redisBacked.restoreSession.bind(adapter);
    redisBacked.doPublish = (message) => whileConnected(() => publish(message));
    redisBacked.doPublishResponse = (requester, response) => whileConnected(() => publishResponse(requester, response));
    redisBacked.persistSession = (session) => {
      if (client.status === 'ready') persist(session);
    };
    redisBacked.restoreSession = (pid, offset) => whileConnected(() => restore(pid, offset));
    // Cluster-wide queries first ask how many processes there are; while Redis is away, only this one counts.
    const serverCount = redisBacked.serverCount.bind(adapter);
    redisBacked.serverCount = () => whileConnected(serverCount).catch(() => 1);
    return adapter;
  } as AdapterFactory;
}
