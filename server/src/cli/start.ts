/**
 * `npm start`: builds the web app when its build is missing or stale, then migrates, seeds an
 * empty database and serves everything on one port.
 */
import { ensureClientBuild } from '../lib/client-build.ts';
import { configOrExit, startServer } from '../server.ts';

const config = configOrExit();
if (config.serveClient) {
  try {
    ensureClientBuild();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
await startServer(config);
