import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccounts, signIn, type Account } from '../../helpers/server-database.ts';
import { startServerProcess, type ServerProcess } from '../../helpers/server-process.ts';
import { connectSocket, emitAck, nextEvent, sleep, waitUntil, type ClientSocket } from '../../helpers/sockets.ts';
import { removeTempDirs, tempDir } from './helpers/temp-dirs.ts';
import { prepareServerDatabase } from './helpers/database.ts';
import { PrivatePostgres, privatePostgresAvailable } from './helpers/private-postgres.ts';
import { ServerLog } from './helpers/server-log.ts';

/**
 * PostgreSQL stops under load (as a crash would: `pg_ctl stop -m immediate`) and comes back.
 * While it is away every API call that needs it answers 503 SERVICE_UNAVAILABLE with
 * Retry-After within 2 s, nothing hangs, the process stays up, health says degraded and
 * real-time clients stay connected; once it is back the same process serves again within 5 s.
 */
const OUTAGE_SECONDS = 8;
const LOAD_WORKERS = 6;
/** A call that takes longer than this is counted as hung (and fails the contract anyway). */
const HANG_MS = 10_000;
const SOCKETS = 5;

type Kind = 'list' | 'detail' | 'profile';
interface Call {
  kind: Kind;
  startedAt: number;
  endedAt: number;
  status: number | 'hung' | 'network';
  code: string | undefined;
  retryAfter: string | null;
}

let pg: PrivatePostgres;
let server: ServerProcess;
let account: Account;
const log = new ServerLog();
const sockets: ClientSocket[] = [];

describe.skipIf(!privatePostgresAvailable())('PostgreSQL stopped under load', () => {
  beforeAll(async () => {
    pg = await PrivatePostgres.start();
    account = (await prepareServerDatabase({ databaseUrl: pg.url, dataDir: 'memory://' }, (db) => insertAccounts(db, ['Outage Reader'])))[0]!;
    server = await startServerProcess(
      { DATABASE_URL: pg.url, DATA_DIR: tempDir('lm-fault-pg-out-'), JWT_SECRET: 'postgres-outage-secret-0123456789abcdefgh', LOG_LEVEL: 'info' },
      { onLogLine: log.onLine },
    );
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.kill('SIGKILL');
    await pg?.destroy();
    removeTempDirs();
  });

  it('answers 503 with Retry-After quickly while it is away, keeps sockets, and serves again by itself', async () => {
    const token = await signIn(server.url, account);
    const carIds = ((await (await fetch(`${server.url}/api/cars?limit=5`)).json()) as { data: { cars: { id: number }[] } }).data.cars.map((c) => c.id);
    for (let i = 0; i < SOCKETS; i++) {
      const socket = await connectSocket(server.url, i === 0 ? { token } : {});
      expect((await emitAck(socket, 'car:join', { carId: carIds[0] })).ok).toBe(true);
      sockets.push(socket);
    }
    const disconnects: string[] = [];
    for (const socket of sockets) socket.on('disconnect', (reason) => disconnects.push(reason));

    // Steady load: each worker reads the listing, a car and the signed-in profile in turn.
    const calls: Call[] = [];
    let running = true;
    const call = async (kind: Kind, n: number): Promise<void> => {
      const path = kind === 'list' ? '/api/cars?limit=12' : kind === 'detail' ? `/api/cars/${carIds[n % carIds.length]}` : '/api/users/profile';
      const startedAt = performance.now();
      try {
        const res = await fetch(`${server.url}${path}`, { headers: kind === 'profile' ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(HANG_MS) });
        const body = (await res.json().catch(() => ({}))) as { code?: string };
        calls.push({ kind, startedAt, endedAt: performance.now(), status: res.status, code: body.code, retryAfter: res.headers.get('retry-after') });
      } catch (error) {
        const hung = (error as Error).name === 'TimeoutError';
        calls.push({ kind, startedAt, endedAt: performance.now(), status: hung ? 'hung' : 'network', code: undefined, retryAfter: null });
      }
    };
    const kinds: Kind[] = ['list', 'detail', 'profile'];
    const load = Promise.all(
      Array.from({ length: LOAD_WORKERS }, async (_, worker) => {
        for (let n = worker; running; n += 1) {
          await call(kinds[n % kinds.length]!, n);
          await sleep(20);
        }
      }),
    );

    await sleep(3_000);
    const stopAt = performance.now();
    await pg.stop('immediate');
    const stoppedAt = performance.now();

    // While it is away: health says so (and answers within its own 2 s bound).
    await sleep(1_000);
    const healthStarted = performance.now();
    const health = await fetch(`${server.url}/api/health`);
    const healthMs = Math.round(performance.now() - healthStarted);
    const healthBody = (await health.json()) as { data: { status: string; db: string } };
    expect(health.status).toBe(503);
    expect(healthBody.data).toMatchObject({ status: 'degraded', db: 'unreachable' });
    await sleep(OUTAGE_SECONDS * 1_000 - 1_000);
    const socketsDuringOutage = sockets.filter((s) => s.connected).length;

    const restartAt = performance.now();
    await pg.startAgain();
    const acceptingAt = performance.now();
    // Service is back when every kind of call started after PostgreSQL accepts connections succeeds.
    const firstSuccess = (kind: Kind) => calls.find((c) => c.kind === kind && c.startedAt >= acceptingAt && c.status === 200);
    await waitUntil(() => kinds.every((kind) => firstSuccess(kind) !== undefined), 30_000, 'every kind of call to succeed again');
    const resumedMs = Math.round(Math.max(...kinds.map((kind) => firstSuccess(kind)!.endedAt)) - acceptingAt);
    const healthAgain = await fetch(`${server.url}/api/health`);
    expect(healthAgain.status).toBe(200);
    await sleep(2_000);
    running = false;
    await load;

    // Real-time clients kept their connections through the outage and still hear the car's news.
    const heard = Promise.all(sockets.map((s) => nextEvent<{ message: string }>(s, 'chat:message', (m) => m.message === 'Back after the outage', 5_000)));
    const posted = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ carId: carIds[0], message: 'Back after the outage' }),
    });
    expect(posted.status).toBe(201);
    await heard;

    const before = calls.filter((c) => c.endedAt < stopAt);
    const during = calls.filter((c) => c.startedAt >= stoppedAt && c.endedAt <= restartAt);
    const aroundStop = calls.filter((c) => c.startedAt < stoppedAt && c.endedAt >= stopAt);
    const afterOutage = calls.filter((c) => c.startedAt >= restartAt);
    const worst = (list: Call[]) => Math.round(Math.max(0, ...list.map((c) => c.endedAt - c.startedAt)));
    const statuses = (list: Call[]) => list.reduce<Record<string, number>>((acc, c) => ({ ...acc, [String(c.status)]: (acc[String(c.status)] ?? 0) + 1 }), {});

    console.log(
      `[fault:postgres-outage] ${calls.length} calls by ${LOAD_WORKERS} workers, ${SOCKETS} sockets; outage ${Math.round((restartAt - stoppedAt) / 1000)} s\n` +
        `  before the stop: ${before.length} calls ${JSON.stringify(statuses(before))}, slowest ${worst(before)} ms\n` +
        `  in flight at the stop: ${aroundStop.length} calls ${JSON.stringify(statuses(aroundStop))}, slowest ${worst(aroundStop)} ms\n` +
        `  during the outage: ${during.length} calls ${JSON.stringify(statuses(during))}, slowest (max) ${worst(during)} ms; health answered 503 degraded in ${healthMs} ms\n` +
        `  sockets connected during the outage ${socketsDuringOutage}/${SOCKETS}, disconnects ${disconnects.length}; process alive ${server.process.exitCode === null}\n` +
        `  PostgreSQL restart took ${Math.round(acceptingAt - restartAt)} ms; service resumed ${resumedMs} ms after it accepted connections (${Math.round(acceptingAt - restartAt) + resumedMs} ms after the restart began)\n` +
        `  after the restart: ${afterOutage.length} calls ${JSON.stringify(statuses(afterOutage))}\n` +
        `  server log: ${log.errors.length} error lines ${JSON.stringify(log.errorSummary())}, ${log.warnings.length} warnings`,
    );

    expect(before.length).toBeGreaterThan(0);
    expect(before.every((c) => c.status === 200)).toBe(true);
    // Nothing hangs and nothing fails any other way, at any moment of the run.
    expect(calls.filter((c) => c.status === 'hung' || c.status === 'network')).toEqual([]);
    expect(calls.filter((c) => c.status !== 200 && c.status !== 503)).toEqual([]);
    // During the outage: every call is a 503 SERVICE_UNAVAILABLE with Retry-After, within 2 s.
    expect(during.length).toBeGreaterThan(50);
    expect(during.filter((c) => c.status !== 503 || c.code !== 'SERVICE_UNAVAILABLE' || c.retryAfter === null)).toEqual([]);
    expect(worst(during)).toBeLessThan(2_000);
    expect(worst(aroundStop)).toBeLessThan(2_000);
    expect(socketsDuringOutage).toBe(SOCKETS);
    expect(disconnects).toEqual([]);
    expect(resumedMs).toBeLessThan(5_000);
    expect(server.process.exitCode).toBeNull();
  }, 180_000);
});
