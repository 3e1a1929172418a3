import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoadTest } from './loadtest-core.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/users.ts';

/** A small run of the real load generator: correctness only (no timing assertions). */
describe('load generator smoke run', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', LOG_LEVEL: 'error' });
    await t.listen();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('delivers every bid to every one of 300 viewers, once, with no errors', async () => {
    const bidders = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const report = await runLoadTest({
      url: t.url,
      viewers: 300,
      cars: 2,
      durationSeconds: 3,
      rampSeconds: 1,
      bidRate: 4,
      bidConcurrency: 0,
      chatRate: 1,
      accounts: bidders.map((b) => ({ email: b.email, password: TEST_PASSWORD })),
      readSnapshot: true,
      socketsPerAddress: 25_000,
      reconnect: false,
      graceSeconds: 1.5,
    });
    expect(report.connections).toMatchObject({ attempted: 300, succeeded: 300, failed: 0, unexpectedDisconnects: 0 });
    expect(report.joins).toMatchObject({ succeeded: 300, failed: 0 });
    expect(report.bids.accepted).toBeGreaterThan(0);
    expect(report.delivery.expected).toBeGreaterThanOrEqual(report.bids.accepted * 100);
    expect(report.delivery.delivered).toBe(report.delivery.expected);
    expect(report.delivery.duplicates).toBe(0);
    expect(report.http.errorsByStatus).toEqual({});
    expect(report.http.errors).toBe(0);
    expect(report.chat.posted).toBeGreaterThan(0);
    expect(report.invariants.violations).toEqual([]);
    expect(report.server.socketsPeak).toBeGreaterThanOrEqual(300);
  });
});
