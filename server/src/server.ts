import cluster from 'node:cluster';
import closeWithGrace from 'close-with-grace';
import { openDatabase } from '../../db/client.ts';
import { configOrExit, type AppConfig } from './config.ts';
import { prepareDatabase } from './lib/prepare-database.ts';
import { isClusterWorker, runPrimary, runWorker } from './cluster.ts';
import { answerHeapProbes } from './lib/heap-probe.ts';
import { createPhotoStorage } from './services/photos/photo-storage.ts';

export { configOrExit };

/** One process, or with WEB_CONCURRENCY > 1 a primary and its workers (see cluster.ts). */
export async function startServer(config: AppConfig = configOrExit()): Promise<void> {
  if (config.webConcurrency > 1) {
    if (cluster.isPrimary) return runPrimary(config);
    if (isClusterWorker()) return runWorker(config);
  }
  // Opened first: the embedded engine boots in its own thread while the app's modules load.
  const databaseOpening = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
  // Awaited by buildApp; a failure before then is not unhandled.
  databaseOpening.catch(() => {});
  // Loaded here so a cluster's primary, which serves nothing, never loads the app.
  const { buildApp } = await import('./app.ts');
  const app = await buildApp(config, { databaseOpening });
  await prepareDatabase(app.database, app.log, createPhotoStorage({ dataDir: config.dataDir, s3: config.photoBucket, folder: 'documents' }));

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    // Stops accepting connections, lets in-flight requests finish, then closes the database.
    await app.close();
  });

  answerHeapProbes();
  await app.listen({ port: config.port, host: config.host });
  if (config.webConcurrencyNote) app.log.info(config.webConcurrencyNote);
  app.log.info(`LuxeMotors is ready at ${config.appUrl} (${app.database.driver === 'pglite' ? 'embedded database in ' + config.dataDir : 'PostgreSQL'})`);
}

// `node --import tsx server/src/server.ts` serves without the web app build step (tests and
// benchmarks start it so). The name is checked too: the compiled entry points in server/dist
// inline this module, and there `import.meta.url` is their own file's.
if (import.meta.url.endsWith('/server.ts') && import.meta.url === `file://${process.argv[1]}`) {
  await startServer();
}
