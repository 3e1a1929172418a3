import { ensureClientBuild } from '../../server/src/lib/client-build.ts';

/** Browser tests and the SPA fallback test serve the built web app, so make sure it is current. */
export default function setup(): void {
  ensureClientBuild((message) => console.log(`[test setup] ${message}`));
}
