import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../server/src/lib/passwords.ts';
import { users } from '../../../db/schema/index.ts';
import { formatReport, runLoadTest } from '../../load/loadtest-core.ts';
import { startServerProcess, type ServerProcess } from '../../helpers/server-process.ts';
import { removeTempDirs, tempDir } from './helpers/temp-dirs.ts';
import { prepareServerDatabase } from './helpers/database.ts';
import { PrivatePostgres, privatePostgresAvailable } from './helpers/private-postgres.ts';
import { ServerLog, mb, readMetrics } from './helpers/server-log.ts';

/**
 * Soak: 1,000 Socket.IO viewers on five cars with steady bids and chat for SOAK_SECONDS (600 in
 * `npm run faults`; `SOAK_SECONDS=90` is a quick check). The server's RSS and used heap are read
 * from /metrics (behind METRICS_TOKEN, as in production) every 2 s; after the warm-up
 * (SOAK_WARMUP_SECONDS, 120 by default, at most a third of the run) the last minute must be
 * within 10 % of the first minute, and the server's log must hold no error line. RSS is compared
 * by its average. Used heap rises and falls by tens of megabytes between collections, so it is
 * compared by its floor (the lowest sample of each minute): what survives a collection is what a
 * leak would grow.
 * Runs on a private PostgreSQL cluster, or on the embedded database with SOAK_DATABASE=embedded.
 */
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const WARMUP_SECONDS = Math.min(Number(process.env.SOAK_WARMUP_SECONDS ?? 120), Math.floor(SECONDS / 3));
const VIEWERS = Number(process.env.SOAK_VIEWERS ?? 1_000);
const SAMPLE_SECONDS = 2;
const MAX_GROWTH_PERCENT = 10;
const METRICS_TOKEN = 'soak-metrics-token-0123456789';
const embedded = process.env.SOAK_DATABASE === 'embedded' || !privatePostgresAvailable();
const signed = (n: number) => `${n >= 0 ? '+' : ''}${n}`;

let pg: PrivatePostgres | null = null;
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.kill('SIGKILL');
  await pg?.destroy();
  removeTempDirs();
});

interface Sample {
  at: number;
  rss: number;
  heap: number;
}

/** Average and lowest value of the samples in [from, to) seconds. */
function windowOf(samples: Sample[], key: 'rss' | 'heap', from: number, to: number): { mean: number; floor: number } {
  const values = samples.filter((s) => s.at >= from && s.at < to).map((s) => s[key]);
  return { mean: values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length), floor: Math.min(...values) };
}

describe('soak', () => {
  it(`keeps memory flat and logs no error with ${VIEWERS} viewers, bids and chat for ${SECONDS} s`, async () => {
    const dataDir = tempDir('lm-fault-soak-');
    if (!embedded) pg = await PrivatePostgres.start();
    const where = { databaseUrl: pg?.url ?? null, dataDir };
    const password = 'Soak-Bidder-Aa1!';
    const accounts = await prepareServerDatabase(where, async (db) => {
      const passwordHash = await hashPassword(password);
      const rows = Array.from({ length: 5 }, (_, i) => ({ email: `soak-${Date.now()}-${i}@example.com`, name: `Soak Bidder ${i + 1}`, passwordHash, emailVerified: true }));
      await db.insert(users).values(rows);
      return rows.map((r) => ({ email: r.email, password }));
    });
    const log = new ServerLog();
    server = await startServerProcess(
      { DATABASE_URL: where.databaseUrl ?? '', DATA_DIR: dataDir, JWT_SECRET: 'soak-secret-0123456789abcdefghijklmnop', METRICS_TOKEN, NODE_ENV: 'production', LOG_LEVEL: 'info' },
      { onLogLine: log.onLine },
    );
    const url = server.url;

    // /metrics is protected: without the token it is refused.
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const samples: Sample[] = [];
    const started = performance.now();
    const sample = async () => {
      const m = await readMetrics(url, METRICS_TOKEN).catch(() => null);
      if (m) samples.push({ at: (performance.now() - started) / 1000, rss: m('process_resident_memory_bytes'), heap: m('nodejs_heap_size_used_bytes') });
    };
    await sample();
    const sampler = setInterval(() => void sample(), SAMPLE_SECONDS * 1000);
    let lastProgress = 0;
    const report = await runLoadTest({
      url,
      viewers: VIEWERS,
      cars: 5,
      durationSeconds: SECONDS,
      rampSeconds: Math.min(30, Math.floor(WARMUP_SECONDS / 2)),
      bidRate: 2,
      bidConcurrency: 0,
      chatRate: 2,
      accounts,
      readSnapshot: true,
      socketsPerAddress: 25_000,
      reconnect: true,
      graceSeconds: 2,
      metricsToken: METRICS_TOKEN,
      onProgress: (line) => {
        // A line a minute is enough to see it is alive.
        if (performance.now() - lastProgress < 60_000) return;
        lastProgress = performance.now();
        console.log(`[fault:soak] ${line}`);
      },
    });
    clearInterval(sampler);
    await sample();

    const end = samples.at(-1)!.at;
    const span = Math.min(60, (end - WARMUP_SECONDS) / 3);
    const growth = (key: 'rss' | 'heap', by: 'mean' | 'floor') => {
      const first = windowOf(samples, key, WARMUP_SECONDS, WARMUP_SECONDS + span)[by];
      const last = windowOf(samples, key, end - span, end + 1)[by];
      return { first, last, percent: Math.round(((last - first) / first) * 1000) / 10 };
    };
    const rss = growth('rss', 'mean');
    const heap = growth('heap', 'floor');
    const heapMean = growth('heap', 'mean');
    const peak = (key: 'rss' | 'heap') => Math.max(...samples.map((s) => s[key]));
    // Minute by minute: RSS average, used heap floor-peak.
    const minutes = Array.from({ length: Math.ceil(end / 60) }, (_, i) => {
      const rssMinute = windowOf(samples, 'rss', i * 60, (i + 1) * 60);
      const heapMinute = windowOf(samples, 'heap', i * 60, (i + 1) * 60);
      const heapPeak = Math.max(...samples.filter((s) => s.at >= i * 60 && s.at < (i + 1) * 60).map((s) => s.heap));
      return `${i + 1}: ${mb(rssMinute.mean)} / ${mb(heapMinute.floor)}-${mb(heapPeak)}`;
    });
    console.log(
      `[fault:soak] ${SECONDS} s on ${embedded ? 'the embedded database' : 'PostgreSQL'}, ${samples.length} samples every ${SAMPLE_SECONDS} s, warm-up ${WARMUP_SECONDS} s, windows of ${Math.round(span)} s\n` +
        `  RSS average: first window ${mb(rss.first)} MB, last ${mb(rss.last)} MB (${signed(rss.percent)} %), peak ${mb(peak('rss'))} MB\n` +
        `  heap used floor: first window ${mb(heap.first)} MB, last ${mb(heap.last)} MB (${signed(heap.percent)} %); average ${mb(heapMean.first)} -> ${mb(heapMean.last)} MB (${signed(heapMean.percent)} %), peak ${mb(peak('heap'))} MB\n` +
        `  per minute (RSS average / heap floor-peak, MB): ${minutes.join(', ')}\n` +
        `  server log: ${log.lines} lines, ${log.errors.length} at error level ${JSON.stringify(log.errorSummary())}, ${log.warnings.length} warnings\n` +
        formatReport(report),
    );

    expect(samples.length).toBeGreaterThan(SECONDS / SAMPLE_SECONDS / 2);
    expect(rss.percent).toBeLessThan(MAX_GROWTH_PERCENT);
    expect(heap.percent).toBeLessThan(MAX_GROWTH_PERCENT);
    expect(log.errors).toEqual([]);
    expect(report.connections.failed).toBe(0);
    expect(report.delivery.gaps).toBe(0);
    expect(report.delivery.duplicates).toBe(0);
    expect(report.http.errors).toBe(0);
    expect(report.invariants.violations).toEqual([]);
    expect(server.process.exitCode).toBeNull();
  });
});
