import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Mailer, createTransport } from '../services/mailer.ts';

export default fp(
  async function mailer(app: FastifyInstance) {
    const transport = await createTransport(app.config);
    const instance = new Mailer(app.jobs, app.db, transport, app.config.mailFrom, app.log.child({ module: 'mailer' }), app.config.mailRetrySeconds);
    app.decorate('mailer', instance);
    // The job runner stops in preClose, so no mail is being sent by now.
    app.addHook('onClose', async () => transport?.close());
  },
  { name: 'mailer', dependencies: ['jobs', 'database'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}
