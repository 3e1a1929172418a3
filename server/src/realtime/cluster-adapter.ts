import type { createShardedAdapter } from '@socket.io/redis-adapter';
import type { AppConfig } from '../config.ts';
import { connectRedis, type RedisClient } from '../lib/redis-connection.ts';

/** How long a Redis write may hold a broadcast before this process delivers it to its own sockets anyway. */
const REDIS_WRITE_PATIENCE_MS = 500;

type ShardedFactory = ReturnType<typeof createShardedAdapter>;

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
export async function shardedRedisAdapter(config: AppConfig): Promise<{ adapter: ShardedFactory; clients: RedisClient[] }> {
  // Loaded only when Redis is configured, like the Redis client.
  const { createShardedAdapter } = await import('@socket.io/redis-adapter');
  const pub = await connectRedis(config, 'luxemotors-socketio-pub', false, { commandTimeoutMs: REDIS_WRITE_PATIENCE_MS });
  // Subscriptions wait for Redis to come back, and are made again on a new primary.
  const sub = await connectRedis(config, 'luxemotors-socketio-sub', true, { shardedSubscribers: true });
  const adapter = createShardedAdapter(pub, sub, { channelPrefix: `${config.redisPrefix}:socket.io`, subscriptionMode: 'dynamic' });
  return { adapter, clients: [pub, sub] };
}
