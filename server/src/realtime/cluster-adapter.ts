import type { createShardedAdapter } from '@socket.io/redis-adapter';
import type { AppConfig } from '../config.ts';
import { connectRedis, type RedisClient } from '../lib/redis-connection.ts';

/** How long a Redis write may hold a broadcast before this process delivers it to its own sockets anyway. */
const REDIS_WRITE_PATIENCE_MS = 500;

type ShardedFactory = ReturnType<typeof createShardedAdapter>;

/** Sharded pub/sub (`SSUBSCRIBE`, `SPUBLISH`) arrived in Redis 7.0. */
const FIRST_SHARDED_REDIS = 7;

/**
 * What is wrong with the Redis that `INFO server` describes, for the adapter: null when it
 * has sharded pub/sub (or says no version), else a sentence for the log.
 */
export function shardedPubSubProblem(infoServer: string): string | null {
  const version = /^redis_version:(\d+)\.(\d+)/m.exec(infoServer);
  if (!version || Number(version[1]) >= FIRST_SHARDED_REDIS) return null;
  return `Redis ${version[1]}.${version[2]} has no sharded pub/sub (Redis 7.0 or later): real-time events will not reach other server processes`;
}

/**
 * Socket.IO's sharded Redis adapter, over one Redis 7 (REDIS_URL) or a Redis Cluster
 * (REDIS_CLUSTER_NODES): one sharded pub/sub channel per room (`SSUBSCRIBE`), subscribed only
 * while this process has sockets in the room, so a process receives the rooms it serves and
 * nothing else, and on a cluster the channels spread over its shards. It is used as the library
 * ships it. It keeps no log of past events: a client that reconnects re-joins and re-reads REST
 * snapshots (as it does after any reconnect) instead of Socket.IO's connection-state recovery.
 *
 * The adapter publishes a broadcast before delivering it to this process's own sockets, so the
 * publishing connection keeps no queue and gives up on a command after half a second: while
 * Redis is away, or a shard is failing over, each process (each worker of a host too) goes on
 * serving its own sockets, and other processes miss those events until Redis is back.
 */
export async function shardedRedisAdapter(
  config: AppConfig,
  log: { error(message: string): void },
): Promise<{ adapter: ShardedFactory; clients: RedisClient[] }> {
  // Loaded only when Redis is configured, like the Redis client.
  const { createShardedAdapter } = await import('@socket.io/redis-adapter');
  const pub = await connectRedis(config, 'luxemotors-socketio-pub', false, { commandTimeoutMs: REDIS_WRITE_PATIENCE_MS });
  // Subscriptions wait for Redis to come back, and are made again on a new primary.
  const sub = await connectRedis(config, 'luxemotors-socketio-sub', true, { shardedSubscribers: true });
  const adapter = createShardedAdapter(pub, sub, { channelPrefix: `${config.redisPrefix}:socket.io`, subscriptionMode: 'dynamic' });
  // An older Redis accepts the connection and refuses only the commands, each as an outage: say
  // once, at start, why.
  pub.once('ready', () => {
    pub.info('server').then(
      (info) => {
        const problem = shardedPubSubProblem(info);
        if (problem) log.error(problem);
      },
      () => {},
    );
  });
  return { adapter, clients: [pub, sub] };
}
