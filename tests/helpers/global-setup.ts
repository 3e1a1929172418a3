import { ensureClientBuild } from '../../server/src/lib/client-build.ts';
import { ensureServerBuild } from '../../server/build.mjs';

/**
 * Tests that start the server as a process run the compiled server, as `npm start` does: build
 * it when its sources changed (a fraction of a second). Browser tests and the SPA fallback test
 * serve the built web app, so make sure it is current too; SKIP_CLIENT_BUILD=1 skips that when
 * running server tests while the client is mid-edit.
 */
export default async function setup(): Promise<void> {
  await ensureServerBuild((message: string) => console.log(`[test setup] ${message}`));
  if (process.env.SKIP_CLIENT_BUILD === '1') return;
  ensureClientBuild((message) => console.log(`[test setup] ${message}`));
}
