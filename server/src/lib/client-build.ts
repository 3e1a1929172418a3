import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT as root } from '../../../db/project-root.ts';

const builtIndex = join(root, 'client/dist/index.html');
const clientSources = ['client/src', 'client/public', 'client/index.html', 'client/vite.config.ts', 'client/vite-precompress.ts', 'common'].map((p) => join(root, p));

/**
 * The newest file time under `path`. Runs at every start, so one system call per entry: no
 * separate existence check, and tests (not part of the build) are skipped unread.
 */
function newestModification(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (!/\.test\.tsx?$/.test(entry)) newest = Math.max(newest, newestModification(join(path, entry)));
  }
  return newest;
}

/** Builds the web app when its build is missing or older than any of its sources. */
export function ensureClientBuild(log: (message: string) => void = console.log): void {
  const builtAt = statSync(builtIndex, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const changedAt = Math.max(...clientSources.map(newestModification));
  if (builtAt >= changedAt) return;
  log(builtAt === 0 ? 'Building the web app (first start)...' : 'Web app sources changed; rebuilding...');
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'client/vite.config.ts', '--logLevel', 'warn'],
    // Always a production build, even when started from a test runner that sets NODE_ENV=test.
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (build.status !== 0) throw new Error('The web app failed to build; see the errors above.');
}
