import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  // Vitest runs the files that took longest last time first, so that the run does not end with one
  // long file alone; it keeps those times in its cache, here outside node_modules, which `npm ci`
  // (CI's install) deletes. Without them it runs the larger files first.
  cacheDir: 'test-results/.vite',
  resolve: {
    alias: { '@common': fileURLToPath(new URL('./common', import.meta.url)) },
  },
  test: {
    include: ['{common,server,db,client,tests}/**/*.test.{ts,tsx}'],
    // The fault scripts take minutes and load the whole machine: `npm run faults` runs them.
    exclude: ['**/node_modules/**', 'client/dist/**', 'tests/faults/**'],
    globalSetup: ['tests/helpers/global-setup.ts'],
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
  },
});
