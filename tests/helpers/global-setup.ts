import { ensureClientBuild } from '../../server/src/lib/client-build.ts';

/**
 * Browser tests and the SPA fallback test serve the built web app, so make sure it is current.
 * SKIP_CLIENT_BUILD=1 skips this when running server tests while the client is mid-edit.
 */
export default function setup(): void {
  if (process.env.SKIP_CLIENT_BUILD === '1') return;
  ensureClientBuild((message) => console.log(`[test setup] ${message}`));
}
