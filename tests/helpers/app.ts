import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDependencies } from '../../server/src/app.ts';
import { loadConfig, type AppConfig } from '../../server/src/config.ts';
import { ShapeCheck } from '../../server/src/lib/shape-check.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { keepAnswered } from './answered-codes.ts';
import { TEST_SERVER_SETTINGS } from './test-settings.ts';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: AppConfig;
  /** Base URL once `listen()` has been called. */
  url: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Boots the real application on a database of its own. `env` overrides configuration. Every
 * answer and push is held to its shared schema: a mismatch answers 500 and fails `close()`.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  database?: TestDatabase,
  deps: Omit<AppDependencies, 'database'> = {},
): Promise<TestApp> {
  const db = database ?? (await createTestDatabase());
  // The port is chosen up front so APP_URL (and with it the allowed WebSocket origin) is right.
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'lm-test-')),
    LOG_LEVEL: 'silent',
    SERVE_CLIENT: 'false',
    APP_URL: `http://127.0.0.1:${port}`,
    // Each app gets its own Redis namespace so parallel test files never hear each other.
    REDIS_PREFIX: `lmtest-${process.pid}-${port}`,
    ...TEST_SERVER_SETTINGS,
    ...env,
    // The test database is chosen above; the app must not open another.
    DATABASE_URL: db.url ?? '',
  });
  const shapeCheck = new ShapeCheck();
  const app = await buildApp(config, { shapeCheck, ...deps, database: db });
  await app.ready();
  const testApp: TestApp = {
    app,
    database: db,
    config,
    url: '',
    async listen() {
      await app.listen({ port, host: '127.0.0.1' });
      testApp.url = `http://127.0.0.1:${port}`;
      return testApp.url;
    },
    async close() {
      await app.close();
      if (!database) await db.close();
      keepAnswered(shapeCheck, String(port));
      if (shapeCheck.mismatches.length > 0) throw new Error(`Answers or pushes that do not match their schemas:\n${shapeCheck.report()}`);
    },
  };
  return testApp;
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
