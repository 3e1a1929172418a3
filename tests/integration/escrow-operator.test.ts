import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { orderIn, waitForOrder } from '../helpers/escrow.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

const run = promisify(execFile);

let t: TestApp;
let buyer: SignedInUser;
let seller: SignedInUser;

beforeAll(async () => {
  t = await startTestApp({ JOB_POLL_SECONDS: '0.5' });
  await t.listen();
  [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
});
afterAll(async () => {
  await t?.close();
});

/**
 * Runs `npm run escrow -- <args>` as the operator would (the compiled command, built first when
 * stale), against the test server's data folder.
 */
async function escrow(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['server/run.mjs', 'escrow', ...args], {
      env: { ...process.env, DATA_DIR: t.config.dataDir, LOG_LEVEL: 'warn', DATABASE_URL: t.database.url ?? '', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run escrow (through the running server)', () => {
  it('refunds a disputed order and prints its timeline', async () => {
    const order = await orderIn(t, 'disputed', buyer, seller);
    const result = await escrow(['resolve', String(order.id), 'refund', '--note', 'Inspector confirmed the damage']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Order #${order.id}`);
    expect(result.stdout).toMatch(/disputed\s+→ refunded\s+by operator: Inspector confirmed the damage/);
    const refunded = await waitForOrder(t, buyer, order.id, (o) => o.refund?.status === 'settled');
    expect(refunded.status).toBe('refunded');
    expect(refunded.events.at(-1)).toMatchObject({ actor: 'operator', note: 'Inspector confirmed the damage' });

    const shown = await escrow(['show', String(order.id)]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Refund:');
    expect(shown.stdout).toMatch(/awaiting_payment\s+→ funded\s+by buyer/);
  });

  it('releases a disputed order to the seller', async () => {
    const order = await orderIn(t, 'disputed', buyer, seller);
    const result = await escrow(['resolve', String(order.id), 'release', '--note', 'Matches the listing']);
    expect(result.code, result.stderr).toBe(0);
    const released = await waitForOrder(t, seller, order.id, (o) => o.payout?.status === 'settled');
    expect(released.status).toBe('released');
  });

  it('explains what it refuses and changes nothing', async () => {
    const order = await orderIn(t, 'inspection', buyer, seller);
    const notDisputed = await escrow(['resolve', String(order.id), 'refund', '--note', 'No dispute here']);
    expect(notDisputed.code).toBe(1);
    expect(notDisputed.stderr).toContain('INVALID_TRANSITION');
    const unknown = await escrow(['show', '999999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no order #999999');
    for (const args of [[], ['resolve'], ['resolve', 'abc', 'refund', '--note', 'x'], ['resolve', String(order.id), 'keep', '--note', 'x'], ['resolve', String(order.id), 'refund']]) {
      const bad = await escrow(args);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toContain('npm run escrow');
    }
    expect((await waitForOrder(t, buyer, order.id, () => true)).status).toBe('inspection');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('npm run escrow (no server running)', () => {
  it('opens the database itself and the server then settles the refund', async () => {
    const order = await orderIn(t, 'disputed', buyer, seller);
    // An empty data folder: no server answers there, so the command works on the database directly.
    const result = await escrow(['resolve', String(order.id), 'refund', '--note', 'Decided offline'], { DATA_DIR: mkdtempSync(join(tmpdir(), 'lm-operator-')) });
    expect(result.code, result.stderr).toBe(0);
    const refunded = await waitForOrder(t, buyer, order.id, (o) => o.refund?.status === 'settled');
    expect(refunded.events.at(-1)).toMatchObject({ actor: 'operator', note: 'Decided offline' });
  });
});
if (!process.env.DATABASE_URL) console.log('[escrow-operator] direct mode skipped: the embedded test database lives in the test process; it runs on PostgreSQL.');
