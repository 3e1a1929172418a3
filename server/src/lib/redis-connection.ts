import type { Cluster, Redis } from 'ioredis';
import type { AppConfig } from '../config.ts';

/** One Redis, or a Redis Cluster: the commands this app sends work the same on both. */
export type RedisClient = Redis | Cluster;

/** Whether processes share real-time state, limits and sign-outs through Redis (one, or a cluster). */
export const sharesThroughRedis = (config: Pick<AppConfig, 'redisUrl' | 'redisClusterNodes'>): boolean =>
  config.redisUrl !== null || config.redisClusterNodes !== null;

/**
 * A new connection to the configured Redis (REDIS_URL) or Redis Cluster (REDIS_CLUSTER_NODES).
 * `queueWhileAway` decides whether commands wait for Redis to come back (the Socket.IO adapter's
 * connections) or fail at once (everything with a local fallback).
 */
export async function connectRedis(
  config: AppConfig,
  connectionName: string,
  queueWhileAway: boolean,
  extra: { commandTimeoutMs?: number; shardedSubscribers?: boolean } = {},
): Promise<RedisClient> {
  // Loaded only when Redis is configured: a single process starts without it.
  const { Cluster, Redis } = await import('ioredis');
  const maxRetriesPerRequest = queueWhileAway ? null : 1;
  if (config.redisClusterNodes) {
    return new Cluster(config.redisClusterNodes, {
      enableOfflineQueue: queueWhileAway,
      // A cluster that lost a primary answers CLUSTERDOWN or MOVED until its replica takes over.
      retryDelayOnClusterDown: 200,
      retryDelayOnFailover: 200,
      // One subscriber connection per primary, so SSUBSCRIBE reaches the shard that owns the channel.
      shardedSubscribers: extra.shardedSubscribers ?? false,
      redisOptions: { maxRetriesPerRequest, connectionName, commandTimeout: extra.commandTimeoutMs },
    });
  }
  return new Redis(config.redisUrl!, { maxRetriesPerRequest, enableOfflineQueue: queueWhileAway, connectionName, commandTimeout: extra.commandTimeoutMs });
}
