import type { Redis } from 'ioredis';
import type { createAdapter } from '@socket.io/redis-streams-adapter';
import type { createShardedAdapter } from '@socket.io/redis-adapter';
import type { AppConfig } from '../config.ts';
import { connectRedis, type RedisClient } from '../lib/redis-connection.ts';

/** How long a Redis write may hold a broadcast before this process delivers it to its own sockets anyway. */
const REDIS_WRITE_PATIENCE_MS = 500;

type AdapterFactory = ReturnType<typeof createAdapter>;
type ShardedFactory = ReturnType<typeof createShardedAdapter>;

/** Messages a sibling on this host can apply without answering: broadcasts and room changes. */
const RELAYED_TYPES = new Set([3, 4, 5, 6]);

/** The IPC message a worker sends its primary, and the primary sends the worker's siblings. */
export interface AdapterRelay {
  type: 'luxemotors:adapter-relay';
  nsp: string;
  message: { uid: string; nsp: string; type: number; data?: unknown };
}

export const isAdapterRelay = (message: unknown): message is AdapterRelay =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'luxemotors:adapter-relay';

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
 * given up after half a second: broadcasts reach this process's sockets at once, and reconnecting
 * clients start a fresh session. When this process is a worker of a host running several
 * (WEB_CONCURRENCY), each broadcast or room change Redis did not take goes to the worker's
 * siblings through the cluster primary over IPC instead, so the processes of one host keep
 * serving each other's events; other hosts miss them until Redis is back, when cross-host
 * delivery resumes by itself. (A write that was given up on but lands late reaches siblings
 * twice; the web app keys events by id.) Revocations missed meanwhile are caught by the
 * periodic session recheck (event bridge).
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
  const relayToSiblings = (nsp: string, message: unknown) => {
    const typed = message as AdapterRelay['message'];
    if (!process.send || !RELAYED_TYPES.has(typed.type)) return;
    process.send({ type: 'luxemotors:adapter-relay', nsp, message: typed } satisfies AdapterRelay);
  };
  // Socket.IO calls the factory with `new`, so it must be a function, not an arrow.
  return function adapterFor(namespace: Parameters<AdapterFactory>[0]) {
    const adapter = create(namespace);
    const redisBacked = adapter as unknown as RedisBackedAdapter;
    const publish = redisBacked.doPublish.bind(adapter);
    const publishResponse = redisBacked.doPublishResponse.bind(adapter);
    const persist = redisBacked.persistSession.bind(adapter);
    const restore = redisBacked.restoreSession.bind(adapter);
    redisBacked.doPublish = (message) =>
      whileConnected(() => publish(message)).catch((error: unknown) => {
        relayToSiblings(namespace.name, message);
        throw error;
      });
    if (process.send) {
      // From a sibling's relay (through the primary): applied as if read from the stream.
      const onMessage = (adapter as unknown as { onMessage(message: unknown): void }).onMessage.bind(adapter);
      const listener = (relay: unknown) => {
        if (isAdapterRelay(relay) && relay.nsp === namespace.name) onMessage(relay.message);
      };
      process.on('message', listener);
      const close = adapter.close?.bind(adapter);
      adapter.close = () => {
        process.off('message', listener);
        return close?.();
      };
    }
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

/**
 * Socket.IO's sharded Redis adapter over a Redis Cluster (REDIS_CLUSTER_NODES): one sharded
 * pub/sub channel per room (`SSUBSCRIBE`), subscribed only while this process has sockets in the
 * room, so a process receives the rooms it serves and nothing else, and the channels spread
 * over the cluster's shards. It keeps no log of past events: a client that reconnects re-joins
 * and re-reads REST snapshots (as it does after any reconnect) instead of Socket.IO's
 * connection-state recovery.
 *
 * The adapter publishes a broadcast before delivering it to this process's own sockets, so the
 * publishing connection keeps no queue and gives up on a command after half a second: while the
 * cluster is away, or a shard is failing over, each process goes on serving its own sockets.
 */
export async function shardedClusterAdapter(config: AppConfig): Promise<{ adapter: ShardedFactory; clients: RedisClient[] }> {
  const { createShardedAdapter } = await import('@socket.io/redis-adapter');
  const pub = await connectRedis(config, 'luxemotors-socketio-pub', false, { commandTimeoutMs: REDIS_WRITE_PATIENCE_MS });
  // Subscriptions wait for the cluster to come back, and are made again on a new primary.
  const sub = await connectRedis(config, 'luxemotors-socketio-sub', true, { shardedSubscribers: true });
  const adapter = createShardedAdapter(pub, sub, { channelPrefix: `${config.redisPrefix}:socket.io`, subscriptionMode: 'dynamic' });
  return { adapter, clients: [pub, sub] };
}
