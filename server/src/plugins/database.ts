import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, DatabaseHandle } from '../../../db/client.ts';

export interface DatabasePluginOptions {
  database: DatabaseHandle;
  /** False when the caller opened the database and will close it (tests). */
  closeOnShutdown: boolean;
}

export default fp<DatabasePluginOptions>(
  async function database(app: FastifyInstance, { database, closeOnShutdown }) {
    app.decorate('database', database);
    app.decorate('db', database.db);
    if (closeOnShutdown) app.addHook('onClose', () => database.close());
  },
  { name: 'database' },
);

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    db: Database;
  }
}
