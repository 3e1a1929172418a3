import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ErrorCode } from '@common/error-codes.ts';
import { sendError } from '../lib/errors.ts';

/** Live state the gauges read when collected. */
export interface LiveFigures {
  sockets(): number;
  rooms(): number;
  viewedCars(): number;
  /** Age in ms of the oldest statement waiting for the database. */
  dbQueueMs(): number;
  dbConnections(): Promise<{ state: string | null; n: number }[]>;
  jobsDue(): Promise<{ queue: string; n: number }[]>;
}

/**
 * Prometheus metrics at GET /metrics: request durations by route, sockets and rooms, events
 * pushed by type, bids accepted and rejected, database connections, and Node's own figures
 * (event-loop delay, heap, RSS). METRICS=false turns it off; METRICS_TOKEN requires
 * `Authorization: Bearer <token>`.
 */
export class AppMetrics {
  readonly registry = new Registry();
  readonly httpDuration = this.histogram('http_request_duration_seconds', 'HTTP request duration by route', ['method', 'route', 'status_code'], [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
  ]);
  readonly eventsEmitted = this.counter('realtime_events_emitted_total', 'Events pushed to clients, by event name (one per broadcast, not per recipient)', ['event']);
  readonly broadcastDuration = this.histogram('realtime_broadcast_duration_seconds', 'Time this process spends handing one broadcast to its local sockets, by event', ['event'], [
    0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
  ]);
  readonly bids = this.counter('bids_total', 'Bids resolved, by result', ['result']);
  readonly writesShed = this.counter('http_writes_shed_total', 'API writes refused with 503 because the database had fallen behind (DB_QUEUE_LIMIT_MS)', []);
  readonly slowConsumersDropped = this.counter('realtime_slow_consumers_dropped_total', 'Real-time connections ended because they left too much unread, by transport', ['transport']);
  readonly sockets: Gauge;
  readonly rooms: Gauge;
  readonly viewedCars: Gauge;
  readonly dbConnections: Gauge<'state'>;
  readonly jobsDue: Gauge<'queue'>;
  /**
   * The text served at /metrics. One process answers for itself; a cluster worker replaces this
   * with the figures of every worker, gathered by the primary (see cluster.ts).
   */
  render: () => Promise<string> = () => this.registry.metrics();

  /**
   * Gauges of live state are read when collected, not when /metrics is requested, so each
   * process reports its own figures whichever process the scrape reached.
   */
  constructor(live: LiveFigures) {
    this.sockets = this.liveGauge('socketio_connected_sockets', 'Socket.IO connections (summed over processes)', () => live.sockets());
    this.rooms = this.liveGauge('socketio_rooms', 'Socket.IO rooms (summed over processes)', () => live.rooms());
    // Presence is shared: every process already knows the cluster-wide figure.
    this.viewedCars = this.liveGauge('presence_viewed_cars', 'Cars with at least one viewer (all processes)', () => live.viewedCars(), 'max');
    this.dbConnections = new Gauge({
      name: 'db_connections',
      help: "This app's PostgreSQL connections by state (all processes), read at scrape time",
      labelNames: ['state'] as const,
      registers: [this.registry],
      // Read from pg_stat_activity, which every process sees whole.
      aggregator: 'max',
      async collect() {
        const states = await live.dbConnections();
        this.reset();
        for (const row of states) this.set({ state: row.state ?? 'unknown' }, row.n);
      },
    });
    this.jobsDue = new Gauge({
      name: 'jobs_due',
      help: 'Jobs due now or running, by queue (all processes): a backlog that grows means the workers are behind',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      aggregator: 'max',
      async collect() {
        const queues = await live.jobsDue();
        this.reset();
        for (const row of queues) this.set({ queue: row.queue }, row.n);
      },
    });
    this.liveGauge('db_queue_age_seconds', 'Age of the oldest statement waiting for the database (largest over processes)', () => live.dbQueueMs() / 1000, 'max');
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
  }

  private counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /** A gauge that reads `read()` when collected; `aggregator` says how a cluster combines the processes' figures. */
  private liveGauge(name: string, help: string, read: () => number, aggregator: 'sum' | 'max' = 'sum'): Gauge {
    return new Gauge({ name, help, aggregator, registers: [this.registry], collect() {
      this.set(read());
    } });
  }
}

export default fp(
  async function metrics(app: FastifyInstance) {
    const metrics = new AppMetrics({
      // Read at scrape time, when the real-time layer (registered later) exists.
      sockets: () => app.io.engine.clientsCount,
      rooms: () => app.io.of('/').adapter.rooms.size,
      viewedCars: () => app.presence.ranking().length,
      dbQueueMs: () => app.database.queueMs(),
      dbConnections: async () => {
        if (app.database.driver !== 'postgres') return [];
        // postgres.js returns rows as an array. The migration lock holder names itself differently.
        return (await app.database.db
          .execute(sql`select state, count(*)::int as n from pg_stat_activity where application_name = 'luxemotors' group by state`)
          .catch(() => [])) as unknown as { state: string | null; n: number }[];
      },
      jobsDue: async () => {
        const { rows } = await app.database.sql
          .executeSql(`select name as queue, count(*)::int as n from pgboss.job where state in ('created', 'retry', 'active') and start_after <= now() group by name`)
          .catch(() => ({ rows: [] }));
        return rows.map((row) => ({ queue: String(row.queue), n: Number(row.n) }));
      },
    });
    app.decorate('metrics', metrics);
    if (!app.config.metrics.enabled) return;

    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url;
      if (!route || route === '/metrics') return;
      metrics.httpDuration.observe({ method: request.method, route, status_code: reply.statusCode }, reply.elapsedTime / 1000);
      if (route === '/api/bids' && request.method === 'POST') {
        metrics.bids.inc({ result: reply.statusCode === 201 ? 'accepted' : reply.statusCode === 409 ? 'rejected' : 'refused' });
      }
    });

    const token = app.config.metrics.token ? Buffer.from(`Bearer ${app.config.metrics.token}`) : null;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (token) {
        const given = Buffer.from(request.headers.authorization ?? '');
        if (given.length !== token.length || !timingSafeEqual(given, token)) {
          return sendError(reply, ErrorCode.UNAUTHORIZED, 'Metrics need a valid token');
        }
      }
      return reply.type(metrics.registry.contentType).send(await metrics.render());
    });
  },
  { name: 'metrics', dependencies: ['database'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}
