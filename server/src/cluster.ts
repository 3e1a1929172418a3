import cluster, { type Worker } from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import closeWithGrace from 'close-with-grace';
import { pino } from 'pino';
import { AggregatorRegistry, Gauge, type Registry } from 'prom-client';
import type { AppConfig } from './config.ts';
import { openDatabase } from '../../db/client.ts';
import { prepareDatabase } from './lib/prepare-database.ts';
import { HEAP_PROBE, HEAP_REPORT, answerHeapProbes, heapProbeEnabled, isHeapProbe, type HeapReport } from './lib/heap-probe.ts';
import { enableStickySessions } from './realtime/sticky-sessions.ts';
import { createPhotoStorage } from './services/photos/photo-storage.ts';

/**
 * All cores (WEB_CONCURRENCY > 1): a primary process prepares the database once, then forks
 * that many workers. Node's cluster module has the primary accept connections on the one port
 * and hand each to the next worker; every worker runs the whole app, and Redis joins them as it
 * joins servers on several machines (rooms, viewer counts, rate limits, session revocation).
 * Socket.IO long-polling is kept on its worker by sticky-sessions.ts.
 *
 * The primary serves no requests. It restarts a worker that dies, waiting longer after each
 * quick death of the same worker, and on SIGTERM or SIGINT asks every worker to finish its
 * requests and stop.
 */

const SLOT_ENV = 'LUXEMOTORS_WORKER_SLOT';
const SOCKET_DIR_ENV = 'LUXEMOTORS_WORKER_SOCKETS';
const GRACE_MS = 10_000;
/** First restart delay; doubled after each death within STABLE_MS of a start, up to MAX_RESTART_DELAY_MS. */
const RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
const STABLE_MS = 30_000;
/** Starts a worker may fail before any worker was ever ready, before the server gives up. */
const BOOT_ATTEMPTS = 3;

/** How long the primary waits for a worker's metrics; a worker that misses it is left out of that scrape. */
const METRICS_PATIENCE_MS = 2_000;

type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
type FromWorker =
  | { type: 'luxemotors:ready' }
  | { type: 'luxemotors:metrics-request'; id: number }
  | { type: 'luxemotors:metrics-json'; id: number; metrics: MetricsJson }
  | HeapReport;
type ToWorker =
  | { type: 'luxemotors:shutdown' }
  | { type: 'luxemotors:metrics'; id: number; text: string }
  | { type: 'luxemotors:metrics-collect'; id: number }
  | { type: typeof HEAP_PROBE; id: number };

/** True in a worker forked by `runPrimary`. */
export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env[SLOT_ENV] !== undefined;
}

export async function runPrimary(config: AppConfig): Promise<void> {
  const log = pino({ level: config.logLevel, base: { pid: process.pid, role: 'primary' } });
  const processes = config.webConcurrency;

  // Once, before any worker starts (the migration lock would also make concurrent runs safe).
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await prepareDatabase(database, log, createPhotoStorage({ dataDir: config.dataDir, s3: config.photoBucket, folder: 'documents' }));
  } finally {
    await database.close();
  }

  // Private to this server's OS user (mode 0700): the workers' local sockets live here.
  const socketDir = mkdtempSync(join(tmpdir(), 'luxemotors-'));
  const workers: (Worker | null)[] = Array.from({ length: processes }, () => null);
  const quickDeaths: number[] = Array.from({ length: processes }, () => 0);
  const restartTimers = new Set<NodeJS.Timeout>();
  const ready = new Set<number>();
  let everReady = false;
  let shuttingDown = false;
  let metricsRequests = 0;

  /** Every ready worker's metrics, summed (or, for figures each worker knows whole, the largest). */
  const gatherMetrics = async (): Promise<string> => {
    const id = metricsRequests++;
    const asked = workers.filter((w, slot): w is Worker => w !== null && ready.has(slot));
    const answers = await Promise.all(
      asked.map(
        (worker) =>
          new Promise<MetricsJson | null>((resolve) => {
            const timer = setTimeout(() => finish(null), METRICS_PATIENCE_MS);
            const listener = (message: FromWorker) => {
              if (message.type === 'luxemotors:metrics-json' && message.id === id) finish(message.metrics);
            };
            const finish = (metrics: MetricsJson | null) => {
              clearTimeout(timer);
              worker.off('message', listener);
              resolve(metrics);
            };
            worker.on('message', listener);
            send(worker, { type: 'luxemotors:metrics-collect', id });
          }),
      ),
    );
    return AggregatorRegistry.aggregate(answers.filter((a): a is MetricsJson => a !== null)).metrics();
  };

  const fork = (slot: number) => {
    const startedAt = Date.now();
    const worker = cluster.fork({ [SLOT_ENV]: String(slot), [SOCKET_DIR_ENV]: socketDir });
    workers[slot] = worker;
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'luxemotors:ready') {
        ready.add(slot);
        if (!everReady && ready.size === processes) {
          everReady = true;
          log.info(`LuxeMotors is ready at ${config.appUrl} (PostgreSQL, ${processes} processes)`);
        } else if (everReady) {
          log.info({ slot, worker: worker.process.pid }, 'replacement worker ready');
        }
      } else if (message.type === 'luxemotors:metrics-request') {
        void gatherMetrics().then((text) => send(worker, { type: 'luxemotors:metrics', id: message.id, text }));
      }
    });
    worker.on('exit', (code, signal) => {
      ready.delete(slot);
      if (workers[slot] === worker) workers[slot] = null;
      if (shuttingDown) return;
      quickDeaths[slot] = Date.now() - startedAt < STABLE_MS ? quickDeaths[slot]! + 1 : 0;
      if (!everReady && quickDeaths[slot]! >= BOOT_ATTEMPTS) {
        log.fatal({ slot, code, signal }, `a worker failed to start ${BOOT_ATTEMPTS} times; stopping`);
        void stop(1);
        return;
      }
      const delay = Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** Math.max(0, quickDeaths[slot]! - 1));
      log.error({ slot, worker: worker.process.pid, code, signal, restartInMs: delay }, 'worker exited; starting another');
      const timer = setTimeout(() => {
        restartTimers.delete(timer);
        if (!shuttingDown) fork(slot);
      }, delay);
      restartTimers.add(timer);
    });
  };

  const alive = () => workers.filter((w): w is Worker => w !== null && w.isDead() === false);
  const stop = async (exitCode: number) => {
    shuttingDown = true;
    for (const timer of restartTimers) clearTimeout(timer);
    for (const worker of alive()) send(worker, { type: 'luxemotors:shutdown' });
    // Workers finish their requests within their own grace period; this one is the backstop.
    const deadline = Date.now() + GRACE_MS + 2_000;
    while (alive().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const worker of alive()) worker.process.kill('SIGKILL');
    rmSync(socketDir, { recursive: true, force: true });
    process.exit(exitCode);
  };
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      log.error(`second ${signal}, stopping the workers at once`);
      for (const worker of alive()) worker.process.kill('SIGKILL');
      rmSync(socketDir, { recursive: true, force: true });
      process.exit(1);
    }
    log.info({ signal }, 'shutting down');
    void stop(0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  relayHeapProbes(alive);
  if (config.webConcurrencyNote) log.info(config.webConcurrencyNote);
  for (let slot = 0; slot < processes; slot++) fork(slot);
}

/** A worker: the whole app on the shared port. */
export async function runWorker(config: AppConfig): Promise<void> {
  const slot = Number(process.env[SLOT_ENV]);
  const socketDir = process.env[SOCKET_DIR_ENV]!;
  const { buildApp } = await import('./app.ts');
  const app = await buildApp(config);
  await app.ready();
  const sticky = await enableStickySessions(app, { slot, slots: config.webConcurrency, socketDir });
  reportThroughPrimary(app.metrics);
  new Gauge({ name: 'cluster_worker_info', help: 'Worker processes serving the port, by slot and process id', labelNames: ['slot', 'pid'] as const, registers: [app.metrics.registry] }).set(
    { slot: String(slot), pid: String(process.pid) },
    1,
  );
  answerHeapProbes();

  let closing = false;
  const { close } = closeWithGrace({ delay: GRACE_MS }, async ({ signal, err }) => {
    closing = true;
    if (err) app.log.error({ err }, 'worker shutting down after an error');
    else app.log.info({ signal }, 'worker shutting down');
    await app.close();
    await sticky.close();
  });
  process.on('message', (message: ToWorker) => {
    // A terminal's Ctrl-C reaches the workers too: the primary's request then changes nothing.
    if (message.type === 'luxemotors:shutdown' && !closing) void close();
  });

  await app.listen({ port: config.port, host: config.host });
  process.send!({ type: 'luxemotors:ready' } satisfies FromWorker);
}

/** /metrics on a worker answers for every worker: it asks the primary to gather them. */
function reportThroughPrimary(metrics: { registry: Registry; render: () => Promise<string> }): void {
  let next = 0;
  const pending = new Map<number, (text: string) => void>();
  process.on('message', (message: ToWorker) => {
    if (message.type === 'luxemotors:metrics-collect') {
      void metrics.registry.getMetricsAsJSON().then((json) => process.send!({ type: 'luxemotors:metrics-json', id: message.id, metrics: json } satisfies FromWorker));
    } else if (message.type === 'luxemotors:metrics') {
      pending.get(message.id)?.(message.text);
      pending.delete(message.id);
    }
  });
  metrics.render = () =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      process.send!({ type: 'luxemotors:metrics-request', id } satisfies FromWorker);
    });
}

/** The primary answers a benchmark's heap probe with the sum over its workers. */
function relayHeapProbes(workers: () => Worker[]): void {
  if (!heapProbeEnabled()) return;
  process.on('message', (message: unknown) => {
    if (!isHeapProbe(message)) return;
    const current = workers();
    const reports: HeapReport[] = [];
    const collect = (worker: Worker, reply: FromWorker) => {
      if (reply.type !== HEAP_REPORT || reply.id !== message.id) return;
      worker.off('message', listeners.get(worker)!);
      reports.push(reply);
      if (reports.length < current.length) return;
      const sum = (key: 'heapUsed' | 'rss') => reports.reduce((total, r) => total + r[key], 0);
      process.send!({ type: HEAP_REPORT, id: message.id, heapUsed: sum('heapUsed'), rss: sum('rss'), processes: reports.length } satisfies HeapReport);
    };
    const listeners = new Map<Worker, (reply: FromWorker) => void>();
    for (const worker of current) {
      const listener = (reply: FromWorker) => collect(worker, reply);
      listeners.set(worker, listener);
      worker.on('message', listener);
      send(worker, { type: HEAP_PROBE, id: message.id });
    }
  });
}

function send(worker: Worker, message: ToWorker): void {
  if (worker.isConnected()) worker.send(message);
}
