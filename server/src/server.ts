import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type AppConfig } from './config.ts';
import { prepareDatabase } from './lib/prepare-database.ts';

/** Loads the config or exits listing every bad setting. */
export function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export async function startServer(config: AppConfig = configOrExit()): Promise<void> {
  const app = await buildApp(config);
  await prepareDatabase(app.database, app.log);

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    // Stops accepting connections, lets in-flight requests finish, then closes the database.
    await app.close();
  });

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`LuxeMotors is ready at ${config.appUrl} (${app.database.driver === 'pglite' ? 'embedded database in ' + config.dataDir : 'PostgreSQL'})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await startServer();
}
