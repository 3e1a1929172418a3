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
    // Each integration file boots its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
