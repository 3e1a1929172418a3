/**
 * Settings every server a test starts gets, in this process (app.ts) or as a child process
 * (server-process.ts), unless the test sets its own.
 */
export const TEST_SERVER_SETTINGS = {
  // On a test machine shared by many workers a statement may wait for a pooled connection
  // past the production default because the cores are busy, not the database; tests of
  // anything but shedding must not be refused for that (tests/integration/overload.test.ts
  // sets its own limit).
  DB_QUEUE_LIMIT_MS: '5000',
} as const;
