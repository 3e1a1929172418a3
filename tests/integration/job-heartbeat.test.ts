import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/app.ts';
import { serverDatabase } from '../helpers/server-database.ts';
import { ServerProcesses } from '../helpers/server-process.ts';
import { TestMailbox } from '../helpers/smtp.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { TEST_PASSWORD } from '../helpers/users.ts';

/**
 * A job claimed by a process that is then killed (kill -9) is handed out again as soon as the
 * process misses its heartbeats, not after the job's expiry (90 s for mail, 120 s for the rest):
 * here, a verification email whose sending hung when the server died arrives within 30 s of the
 * restart.
 */

const servers = new ServerProcesses();
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  await servers.killAll();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An SMTP server that accepts connections and never answers: a send to it hangs, its job stays active. */
async function silentSmtp(port: number): Promise<Server & { held: Socket[] }> {
  const held: Socket[] = [];
  const server = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return Object.assign(server, { held });
}

describe('a job held by a killed process', () => {
  it('is handed out again within seconds of the restart: the email arrives', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lm-heartbeat-'));
    const database = await serverDatabase(dataDir, async () => null);
    cleanups.push(database.drop);
    const smtpPort = await freePort();
    const silent = await silentSmtp(smtpPort);
    const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, JOB_POLL_SECONDS: '0.5', MAIL_RETRY_SECONDS: '1' };
    const first = await servers.start(env);
    const email = `heartbeat-${Date.now()}@example.com`;
    const registered = await fetch(`${first.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Hart Beat', email, password: TEST_PASSWORD }),
    });
    expect(registered.status).toBe(201);
    // The mail job is claimed and stuck talking to the silent server once it has connected there.
    await waitUntil(() => silent.held.length > 0, 20_000, 'the mail job to connect to the silent mail server');
    await first.kill('SIGKILL');
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    // The mail server is back (on the same port), and so is the app.
    const mailbox = new TestMailbox();
    await mailbox.start(smtpPort);
    cleanups.push(() => mailbox.stop());
    await servers.start(env);
    const restartedAt = Date.now();
    const mail = await mailbox.waitFor((m) => m.to.includes(email), 30_000);
    expect(mail.subject).toMatch(/verify/i);
    console.log(`[job-heartbeat] the claimed email arrived ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(mailbox.to(email)).toHaveLength(1);
  }, 60_000);
});
