import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { OutageLog } from '../lib/outage-log.ts';

/** One Redis connection for counters, limits and presence when REDIS_URL is set; null otherwise. */
export default fp(
  async function redis(app: FastifyInstance) {
    if (!app.config.redisUrl) {
      app.decorate('redis', null);
      return;
    }
    // Loaded only with REDIS_URL: a single process starts without it.
    const { Redis } = await import('ioredis');
    // Commands fail at once while Redis is away (no queue): every user of this connection has
    // a local fallback, and a request must not wait for Redis to come back.
    const client = new Redis(app.config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectionName: 'luxemotors' });
    const outage = new OutageLog(app.log, 'Redis');
    client.on('error', (err) => outage.failed(err));
    client.on('ready', () => outage.recovered());
    app.decorate('redis', client);
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  },
  { name: 'redis' },
);

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | null;
  }
}
