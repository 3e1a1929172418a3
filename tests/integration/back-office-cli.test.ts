import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { apiCalls, auditEntries, createStaff, login, type StaffUser } from '../helpers/staff.ts';
import { createUser } from '../helpers/users.ts';

/**
 * `npm run operator -- grant|revoke` and `npm run audit:verify` as an operator types them on the
 * server: separate processes that reach the running server through its operator socket (on the
 * embedded database and on PostgreSQL alike).
 */

const run = promisify(execFile);

let t: TestApp;
let admin: StaffUser;

async function npm(script: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string; output: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], {
      env: { ...process.env, DATA_DIR: t.config.dataDir, LOG_LEVEL: 'warn', DATABASE_URL: t.database.url ?? '' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr, output: failed.stdout + failed.stderr };
  }
}

describe('operator commands', () => {
  beforeAll(async () => {
    // A revoked session is noticed by the running server within a second.
    t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '10000', SESSION_RECHECK_SECONDS: '1' });
    admin = await createStaff(t, 'admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('grants admin, then operator, then revokes; each ends the user\'s sessions and is audited with actor cli', async () => {
    const user = await createUser(t);
    const granted = await npm('operator', ['grant', user.email, 'admin']);
    expect(granted.code, granted.output).toBe(0);
    expect(granted.stdout).toContain(user.email);
    expect(granted.stdout).toContain('admin');
    const signedIn = await login(t, user.email);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().data.user.role).toBe('admin');
    // The session from before the grant is over.
    expect((await apiCalls(t).post(undefined, '/api/auth/refresh-token', { refreshToken: user.refreshToken })).statusCode).toBe(401);
    await waitUntil(async () => (await apiCalls(t).get(user, '/api/users/profile')).statusCode === 401, 5_000, 'the old access token to stop working');

    const [entry] = await auditEntries(t, admin, { actor: 'cli', targetType: 'user', targetId: user.id });
    expect(entry).toMatchObject({
      actor: 'cli',
      action: 'user.role',
      targetType: 'user',
      targetId: user.id,
      before: expect.objectContaining({ role: 'user' }),
      after: expect.objectContaining({ role: 'admin' }),
    });

    const toOperator = await npm('operator', ['grant', user.email.toUpperCase(), 'operator']);
    expect(toOperator.code, toOperator.output).toBe(0);
    expect(toOperator.stdout).toContain('operator');
    expect((await login(t, user.email)).json().data.user.role).toBe('operator');

    const revoked = await npm('operator', ['revoke', user.email]);
    expect(revoked.code, revoked.output).toBe(0);
    expect(revoked.stdout).toContain(user.email);
    expect((await login(t, user.email)).json().data.user.role).toBe('user');
    const entries = await auditEntries(t, admin, { actor: 'cli', targetId: user.id });
    expect(entries.map((e) => [e.action, (e.after as { role: string }).role])).toEqual([
      ['user.role', 'user'],
      ['user.role', 'operator'],
      ['user.role', 'admin'],
    ]);
  });

  // Seven commands, each a Node process of its own that boots the command-line side: on a busy
  // 2-core machine that alone can pass the default 30 s.
  it('refuses an unknown email or a bad role, changing nothing', { timeout: 90_000 }, async () => {
    const newest = (await auditEntries(t, admin, { limit: 1 }))[0]?.id;
    const unknown = await npm('operator', ['grant', 'nobody-here@example.com', 'admin']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.output).toContain('nobody-here@example.com');
    expect((await npm('operator', ['revoke', 'nobody-here@example.com'])).code).not.toBe(0);
    const user = await createUser(t);
    for (const args of [['grant', user.email, 'superuser'], ['grant', user.email], ['grant'], ['promote', user.email, 'admin'], []]) {
      const bad = await npm('operator', args);
      expect(bad.code, `${args.join(' ')}: ${bad.output}`).not.toBe(0);
    }
    expect((await login(t, user.email)).json().data.user.role).toBe('user');
    expect((await auditEntries(t, admin, { limit: 1 }))[0]?.id).toBe(newest);
  });

  it('audit:verify passes an intact log and names the first entry changed behind the application\'s back', async () => {
    // A few more entries, from the console as well as the command line.
    const user = await createUser(t);
    expect((await apiCalls(t).post(admin, `/api/admin/users/${user.id}/suspend`, { reason: 'Testing the verifier' })).statusCode).toBe(200);
    expect((await apiCalls(t).post(admin, `/api/admin/users/${user.id}/unsuspend`, { reason: 'Testing the verifier' })).statusCode).toBe(200);
    const oldestFirst = (await auditEntries(t, admin)).reverse();
    expect(oldestFirst.length).toBeGreaterThanOrEqual(5);

    const intact = await npm('audit:verify');
    expect(intact.code, intact.output).toBe(0);
    expect(intact.stdout).toContain(String(oldestFirst.length));

    const changed = oldestFirst[1]!;
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table audit_log disable trigger user`);
      await tx.execute(sql`update audit_log set reason = 'Nothing happened' where id = ${changed.id}`);
      await tx.execute(sql`alter table audit_log enable trigger user`);
    });
    const tampered = await npm('audit:verify');
    expect(tampered.code, tampered.output).not.toBe(0);
    expect(tampered.output).toContain(`#${changed.id}`);
  });
});
