import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

/** One Redis connection for counters and limits when REDIS_URL is set; null otherwise. */
export default fp(
  async function redis(app: FastifyInstance) {
    if (!app.config.redisUrl) {
      app.decorate('redis', null);
      return;
    }
    const client = new Redis(app.config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, connectionName: 'luxemotors' });
    client.on('error', (err) => app.log.warn({ err }, 'redis error'));
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
