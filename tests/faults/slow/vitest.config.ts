import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run faults`: the fault scripts (database stopped under load, kill -9 in a bid storm, a
 * Redis outage across two processes, 1,000 clients that stop reading, a soak). Each starts the
 * server as a process of its own with private PostgreSQL and Redis servers where it needs them,
 * asserts what clients would notice and prints its measured figures. They load the whole machine
 * and take 15-20 minutes, so they run one at a time and never as part of `npm test`.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));

export default defineConfig({
  root,
  resolve: {
    alias: { '@common': fileURLToPath(new URL('../../../common', import.meta.url)) },
  },
  test: {
    root,
    include: ['tests/faults/slow/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    // The soak alone runs SOAK_SECONDS (600 by default) plus its warm-up and set-up.
    testTimeout: 30 * 60_000,
    hookTimeout: 5 * 60_000,
    reporters: ['default'],
  },
});
