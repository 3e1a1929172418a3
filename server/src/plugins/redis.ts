import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { OutageLog } from '../lib/outage-log.ts';
import { connectRedis, sharesThroughRedis, type RedisClient } from '../lib/redis-connection.ts';

/** One Redis connection for counters, limits and presence when Redis is configured; null otherwise. */
export default fp(
  async function redis(app: FastifyInstance) {
    const connections: RedisClient[] = [];
    // Every Redis connection of this process (the adapter's and the car feed's join later): Redis
    // counts as back only once all of them are, or events published meanwhile would be missed.
    app.decorate('redisConnections', connections);
    if (!sharesThroughRedis(app.config)) {
      app.decorate('redis', null);
      return;
    }
    // Commands fail at once while Redis is away (no queue): every user of this connection has
    // a local fallback, and a request must not wait for Redis to come back.
    const client = await connectRedis(app.config, 'luxemotors', false);
    const outage = new OutageLog(app.log, 'Redis');
    client.on('error', (err: unknown) => outage.failed(err));
    client.on('ready', () => outage.recovered());
    app.decorate<RedisClient | null>('redis', client);
    connections.push(client);
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  },
  { name: 'redis' },
);

declare module 'fastify' {
  interface FastifyInstance {
    redis: RedisClient | null;
    redisConnections: RedisClient[];
  }
}
