import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const alias = { '@common': fileURLToPath(new URL('./common', import.meta.url)) };

/**
 * Tests by kind, one Vitest project each: `npm run test:unit` (or `vitest run --project unit`)
 * runs the pure rules beside the code in seconds; `npm test` runs every project.
 * The slow fault scripts under tests/faults/slow/ are `npm run faults` (their own config).
 */
const serverBacked = (name: string, include: string[], extra: TestProjectInlineConfiguration['test'] = {}): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name,
    include,
    // Tests that start the server as a process run its compiled build, and browser tests serve
    // the built web app: the setup builds whichever is stale (unit tests need neither).
    globalSetup: ['tests/helpers/global-setup.ts'],
    ...extra,
  },
});

export default defineConfig({
  // Vitest runs the files that took longest last time first, so that the run does not end with one
  // long file alone; it keeps those times in its cache, here outside node_modules, which `npm ci`
  // (CI's install) deletes. Without them it runs the larger files first.
  cacheDir: 'test-results/.vite',
  resolve: { alias },
  test: {
    exclude: ['**/node_modules/**', 'client/dist/**'],
    pool: 'forks',
    // A worker keeps its loaded modules from one file to the next instead of importing the
    // server afresh for each (measured: 153 s of imports in a run became 15 s, and the embedded
    // pass about a tenth shorter). Every file starts and closes its own servers, databases and
    // browsers, and nothing of ours keeps state in a module that a file relies on being fresh.
    isolate: false,
    // Each integration file boots its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['{common,server,db,client}/**/*.test.{ts,tsx}'], testTimeout: 10_000 } },
      serverBacked('integration', ['tests/integration/**/*.test.ts']),
      serverBacked('browser', ['tests/browser/**/*.test.ts']),
      // The quick fault tests (Redis stopped and started, a server killed mid-escrow); the slow
      // scripts beside them in slow/ load the whole machine for minutes and are `npm run faults`.
      serverBacked('faults', ['tests/faults/*.test.ts']),
      serverBacked('load', ['tests/load/**/*.test.ts']),
    ],
  },
});
