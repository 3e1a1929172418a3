/**
 * The load generator behind `npm run loadtest`: simulated viewers on Socket.IO, bidders and
 * chatters over REST, and a report of what arrived, how fast, and what the server felt.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { minimumBid } from '@common/bid-rules.ts';

export interface LoadTestOptions {
  url: string;
  viewers: number;
  /** How many cars the viewers spread over (round robin). */
  cars: number;
  /** Seconds of steady state after the ramp. */
  durationSeconds: number;
  rampSeconds: number;
  /** Bids per second across all bidders; 0 for none. */
  bidRate: number;
  /**
   * Instead of a rate: this many bidders each bidding back to back (a bid storm on the first
   * car), to measure how many bids per second the server resolves.
   */
  bidConcurrency: number;
  /** Chat messages per second across all bidders; 0 for none. */
  chatRate: number;
  /** Signed-in accounts that bid and chat. */
  accounts: { email: string; password: string }[];
  /** Each viewer reads the car's REST snapshot after joining, as the car page does. */
  readSnapshot: boolean;
  /** Sockets per 127.0.0.x source address before moving to the next (the ephemeral port range). */
  socketsPerAddress: number;
  /** Keep reconnecting (and re-joining) after a disconnect, as browsers do. */
  reconnect: boolean;
  /** Seconds to wait after the last bid for late deliveries. */
  graceSeconds: number;
  /** The server's METRICS_TOKEN, when its /metrics needs one. */
  metricsToken?: string;
  onProgress?: (line: string) => void;
}

export const DEFAULT_OPTIONS: Omit<LoadTestOptions, 'url' | 'accounts'> = {
  viewers: 100,
  cars: 1,
  durationSeconds: 30,
  rampSeconds: 5,
  bidRate: 1,
  bidConcurrency: 0,
  chatRate: 0,
  readSnapshot: true,
  socketsPerAddress: 25_000,
  reconnect: true,
  graceSeconds: 2,
};

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface LoadTestReport {
  options: Omit<LoadTestOptions, 'accounts' | 'onProgress' | 'metricsToken'> & { accounts: number };
  connections: { attempted: number; succeeded: number; failed: number; unexpectedDisconnects: number; reconnects: number; rejoinP95Ms: number | null };
  joins: { succeeded: number; failed: number; perSecond: number };
  fanOut: Record<string, LatencySummary>;
  delivery: { expected: number; delivered: number; gaps: number; duplicates: number };
  viewerUpdates: { messagesPerViewerPerSecondMean: number; messagesPerViewerPerSecondMax: number };
  bids: { accepted: number; rejected: number; resolvedPerSecond: number };
  chat: { posted: number };
  http: { requests: number; errors: number; errorsByStatus: Record<string, number> };
  /** The generator's own event-loop delay: high values mean latency figures include its own queueing. */
  generator: { eventLoopP99Ms: number; eventLoopMaxMs: number };
  server: { broadcastP99Ms: Record<string, number | null>; rssBeforeMb: number | null; rssPeakMb: number | null; heapBeforeMb: number | null; heapPeakMb: number | null; eventLoopP99PeakMs: number | null; socketsPeak: number | null; rssPerViewerKb: number | null; heapPerViewerKb: number | null };
  invariants: { violations: string[] };
}

interface Viewer {
  socket: Socket;
  carId: number;
  joinedAt: number | null;
  connectedAt: number;
  disconnectedAt: number | null;
  bidIds: Set<number>;
  duplicates: number;
  viewerUpdates: number;
}

interface SentBid {
  id: number;
  carId: number;
  amount: number;
  sentAt: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function summarize(samples: number[]): LatencySummary {
  if (samples.length === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0 };
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1]! };
}

function percentile(samples: number[], q: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const metricsHeaders = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

/** Reads a few of the server's own figures from its Prometheus endpoint. */
async function readServerMetrics(url: string, token?: string): Promise<{ rss: number; heap: number; lagP99: number; sockets: number } | null> {
  try {
    const res = await fetch(`${url}/metrics`, { headers: metricsHeaders(token) });
    if (!res.ok) return null;
    const text = await res.text();
    const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? NaN);
    return {
      rss: value('process_resident_memory_bytes'),
      heap: value('nodejs_heap_size_used_bytes'),
      lagP99: value('nodejs_eventloop_lag_p99_seconds'),
      sockets: value('socketio_connected_sockets'),
    };
  } catch {
    return null;
  }
}

/** p99 of the server's own broadcast time per event, from its histogram buckets. */
async function readBroadcastP99(url: string, token?: string): Promise<Record<string, number | null>> {
  const text = await fetch(`${url}/metrics`, { headers: metricsHeaders(token) }).then((r) => (r.ok ? r.text() : ''), () => '');
  const result: Record<string, number | null> = {};
  for (const event of ['bid:placed', 'chat:message']) {
    const buckets = [...text.matchAll(new RegExp(`^realtime_broadcast_duration_seconds_bucket\\{le="([^"]+)",event="${event}"\\} (\\d+)`, 'gm'))].map((m) => ({ le: m[1] === '+Inf' ? Infinity : Number(m[1]), n: Number(m[2]) }));
    const total = buckets.at(-1)?.n ?? 0;
    const bucket = buckets.find((b) => b.n >= total * 0.99);
    result[event] = total === 0 || !bucket ? null : bucket.le === Infinity ? null : bucket.le * 1000;
  }
  return result;
}

export async function runLoadTest(options: LoadTestOptions): Promise<LoadTestReport> {
  const base = options.url.replace(/\/$/, '');
  const log = options.onProgress ?? (() => {});
  const httpErrors: Record<string, number> = {};
  let httpRequests = 0;
  const request = async (path: string, init: RequestInit = {}): Promise<Response | null> => {
    httpRequests += 1;
    try {
      const res = await fetch(`${base}${path}`, init);
      if (res.status >= 500 || res.status === 429) httpErrors[res.status] = (httpErrors[res.status] ?? 0) + 1;
      return res;
    } catch {
      httpErrors.network = (httpErrors.network ?? 0) + 1;
      return null;
    }
  };

  // The cars under test and what the bidders need to know about them.
  const listing = await request(`/api/cars?sort=price-low&limit=${Math.min(50, Math.max(1, options.cars))}`);
  if (!listing?.ok) throw new Error(`could not read the catalogue from ${base}`);
  const carList = ((await listing.json()) as { data: { cars: { id: number; price: number }[] } }).data.cars.slice(0, options.cars);
  if (carList.length === 0) throw new Error('the catalogue is empty');
  const highest = new Map<number, number | null>();
  for (const car of carList) {
    const detail = (await (await request(`/api/cars/${car.id}`))?.json()) as { data: { highestBid: number | null } } | undefined;
    highest.set(car.id, detail?.data.highestBid ?? null);
  }

  // Signed-in accounts for bidding and chatting.
  const tokens: string[] = [];
  for (const account of options.accounts) {
    const res = await request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
    if (!res?.ok) throw new Error(`could not sign in ${account.email}: HTTP ${res?.status ?? 'network error'}`);
    tokens.push(((await res.json()) as { data: { accessToken: string } }).data.accessToken);
  }
  if ((options.bidRate > 0 || options.bidConcurrency > 0 || options.chatRate > 0) && tokens.length === 0) throw new Error('bidding or chatting needs at least one account');

  const before = await readServerMetrics(base, options.metricsToken);
  const generatorLoop = monitorEventLoopDelay({ resolution: 5 });
  generatorLoop.enable();
  const serverSamples: NonNullable<Awaited<ReturnType<typeof readServerMetrics>>>[] = [];
  const latency: Record<string, number[]> = { 'bid:placed': [], 'chat:message': [], 'car:viewers': [] };
  const viewers: Viewer[] = [];
  const joinTimes: number[] = [];
  const rejoinDelays: number[] = [];
  let joinFailures = 0;
  let connectFailures = 0;
  let unexpectedDisconnects = 0;
  let reconnects = 0;
  const started = Date.now();
  let stopping = false;

  const join = (viewer: Viewer, disconnectedAt: number | null) => {
    viewer.socket.timeout(10_000).emit('car:join', { carId: viewer.carId }, async (err: unknown, ack: { ok: boolean } | undefined) => {
      if (err || !ack?.ok) {
        joinFailures += 1;
        return;
      }
      const now = Date.now();
      if (viewer.joinedAt === null) {
        viewer.joinedAt = now;
        joinTimes.push(now);
      }
      if (disconnectedAt !== null) rejoinDelays.push(now - disconnectedAt);
      if (options.readSnapshot && disconnectedAt === null) await request(`/api/cars/${viewer.carId}`);
    });
  };

  const connectViewer = (index: number): Promise<void> =>
    new Promise((resolve) => {
      const carId = carList[index % carList.length]!.id;
      const localAddress = `127.0.0.${1 + Math.floor(index / options.socketsPerAddress)}`;
      const socket = io(base, {
        transports: ['websocket'],
        reconnection: options.reconnect,
        reconnectionDelay: 500,
        reconnectionDelayMax: 3_000,
        forceNew: true,
        timeout: 20_000,
        ...({ localAddress } as object),
      });
      const viewer: Viewer = { socket, carId, joinedAt: null, connectedAt: 0, disconnectedAt: null, bidIds: new Set(), duplicates: 0, viewerUpdates: 0 };
      let firstConnect = true;
      socket.on('connect', () => {
        if (firstConnect) {
          firstConnect = false;
          viewer.connectedAt = Date.now();
          viewers.push(viewer);
          join(viewer, null);
          resolve();
        } else {
          reconnects += 1;
          join(viewer, viewer.disconnectedAt);
          viewer.disconnectedAt = null;
        }
      });
      socket.on('connect_error', () => {
        if (firstConnect) {
          firstConnect = false;
          connectFailures += 1;
          socket.close();
          resolve();
        }
      });
      socket.on('disconnect', (reason) => {
        viewer.disconnectedAt = Date.now();
        if (!stopping && reason !== 'io client disconnect') unexpectedDisconnects += 1;
        // Socket.IO leaves reconnecting after a server-side disconnect to the application.
        if (!stopping && options.reconnect && reason === 'io server disconnect') socket.connect();
      });
      socket.on('bid:placed', (event: { bid: { id: number }; emittedAt: number }) => {
        latency['bid:placed']!.push(Date.now() - event.emittedAt);
        if (viewer.bidIds.has(event.bid.id)) viewer.duplicates += 1;
        else viewer.bidIds.add(event.bid.id);
      });
      socket.on('chat:message', (event: { emittedAt: number }) => latency['chat:message']!.push(Date.now() - event.emittedAt));
      socket.on('car:viewers', (event: { emittedAt: number }) => {
        viewer.viewerUpdates += 1;
        latency['car:viewers']!.push(Date.now() - event.emittedAt);
      });
    });

  // Progress and server figures while running.
  const progress = setInterval(async () => {
    const sample = await readServerMetrics(base, options.metricsToken);
    if (sample) serverSamples.push(sample);
    const bids = summarize(latency['bid:placed']!.slice(-5_000));
    log(
      `t=${Math.round((Date.now() - started) / 1000)}s connected ${viewers.length}/${options.viewers} joined ${joinTimes.length} ` +
        `bids ${sentBids.length} (rejected ${rejectedBids}) bid p99 ${bids.p99} ms` +
        (sample ? ` | server rss ${Math.round(sample.rss / 1e6)} MB heap ${Math.round(sample.heap / 1e6)} MB loop p99 ${Math.round(sample.lagP99 * 1000)} ms sockets ${sample.sockets}` : ''),
    );
  }, 1_000);

  // Ramp: spread the connections evenly over the ramp.
  const sentBids: SentBid[] = [];
  let rejectedBids = 0;
  let chatPosted = 0;
  const batch = Math.max(1, Math.ceil(options.viewers / Math.max(1, options.rampSeconds * 20)));
  const rampStep = (options.rampSeconds * 1000) / Math.ceil(options.viewers / batch);
  const connecting: Promise<void>[] = [];
  for (let i = 0; i < options.viewers; i += batch) {
    for (let j = i; j < Math.min(options.viewers, i + batch); j++) connecting.push(connectViewer(j));
    if (options.rampSeconds > 0) await sleep(rampStep);
  }
  await Promise.all(connecting);
  const joinDeadline = Date.now() + 15_000;
  while (joinTimes.length + joinFailures < viewers.length && Date.now() < joinDeadline) await sleep(50);

  // Steady state: bids and chat at the requested rates.
  const steadyStart = Date.now();
  const steadyEnd = steadyStart + options.durationSeconds * 1000;
  let turn = 0;
  const placeBid = async (carIndex: number, token: string) => {
    const car = carList[carIndex % carList.length]!;
    const amount = minimumBid(car.price, highest.get(car.id) ?? null);
    const sentAt = Date.now();
    const res = await request('/api/bids', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ carId: car.id, amount }),
    });
    if (!res) return;
    const body = (await res.json().catch(() => null)) as { data?: { bid: { id: number; amount: number } }; details?: { minimumAmount: number; highestBid: number | null } } | null;
    if (res.status === 201 && body?.data) {
      sentBids.push({ id: body.data.bid.id, carId: car.id, amount: body.data.bid.amount, sentAt });
      highest.set(car.id, Math.max(highest.get(car.id) ?? 0, body.data.bid.amount));
    } else if (res.status === 409) {
      rejectedBids += 1;
      if (body?.details?.highestBid) highest.set(car.id, Math.max(highest.get(car.id) ?? 0, body.details.highestBid));
    }
  };
  const bidStorm = async () => {
    await Promise.all(
      Array.from({ length: options.bidConcurrency }, async (_, i) => {
        const token = tokens[i % tokens.length]!;
        while (Date.now() < steadyEnd) await placeBid(0, token);
      }),
    );
  };
  const bidLoop = async () => {
    if (options.bidConcurrency > 0) return bidStorm();
    if (options.bidRate <= 0) return;
    const interval = 1000 / options.bidRate;
    let next = Date.now();
    const inFlight: Promise<void>[] = [];
    while (Date.now() < steadyEnd) {
      inFlight.push(placeBid(turn, tokens[turn % tokens.length]!));
      turn += 1;
      next += interval;
      await sleep(Math.max(0, next - Date.now()));
    }
    await Promise.all(inFlight);
  };
  const chatLoop = async () => {
    if (options.chatRate <= 0) return;
    const interval = 1000 / options.chatRate;
    let n = 0;
    while (Date.now() < steadyEnd) {
      const car = carList[n % carList.length]!;
      const token = tokens[n % tokens.length]!;
      n += 1;
      void request('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ carId: car.id, message: `Load test message ${n}` }),
      }).then((res) => {
        if (res?.status === 201) chatPosted += 1;
      });
      await sleep(interval);
    }
  };
  await Promise.all([bidLoop(), chatLoop(), sleep(Math.max(0, steadyEnd - Date.now()))]);
  const bidWindowSeconds = Math.max(0.001, (Date.now() - steadyStart) / 1000);
  await sleep(options.graceSeconds * 1000);
  clearInterval(progress);
  const peak = serverSamples.reduce(
    (acc, s) => ({ rss: Math.max(acc.rss, s.rss || 0), heap: Math.max(acc.heap, s.heap || 0), lag: Math.max(acc.lag, s.lagP99 || 0), sockets: Math.max(acc.sockets, s.sockets || 0) }),
    { rss: 0, heap: 0, lag: 0, sockets: 0 },
  );
  stopping = true;
  const end = Date.now();

  // Delivery: each accepted bid is owed to every viewer of its car that had joined before the
  // bid was sent and was still connected at the end.
  let expected = 0;
  let delivered = 0;
  let duplicates = 0;
  const byCar = new Map<number, Viewer[]>();
  for (const viewer of viewers) {
    duplicates += viewer.duplicates;
    if (viewer.joinedAt === null || viewer.disconnectedAt !== null) continue;
    byCar.set(viewer.carId, [...(byCar.get(viewer.carId) ?? []), viewer]);
  }
  for (const bid of sentBids) {
    for (const viewer of byCar.get(bid.carId) ?? []) {
      if (viewer.joinedAt! > bid.sentAt) continue;
      expected += 1;
      if (viewer.bidIds.has(bid.id)) delivered += 1;
    }
  }

  // Invariants seen from outside: accepted amounts rise with bid id per car.
  const violations: string[] = [];
  for (const car of carList) {
    const accepted = sentBids.filter((b) => b.carId === car.id).sort((a, b) => a.id - b.id);
    for (let i = 1; i < accepted.length; i++) {
      if (accepted[i]!.amount <= accepted[i - 1]!.amount) violations.push(`car ${car.id}: bid ${accepted[i]!.id} (${accepted[i]!.amount}) not above bid ${accepted[i - 1]!.id}`);
    }
    if (accepted.length > 0) {
      const detail = (await (await request(`/api/cars/${car.id}`))?.json()) as { data: { highestBid: number | null } } | undefined;
      const top = Math.max(...accepted.map((b) => b.amount));
      if (detail && detail.data.highestBid !== null && detail.data.highestBid < top) violations.push(`car ${car.id}: highestBid ${detail.data.highestBid} below accepted ${top}`);
    }
  }

  const rates = viewers.map((v) => v.viewerUpdates / Math.max(1, ((v.disconnectedAt ?? end) - v.connectedAt) / 1000));
  for (const viewer of viewers) viewer.socket.close();
  const joinSpan = joinTimes.length > 1 ? (Math.max(...joinTimes) - Math.min(...joinTimes)) / 1000 : 0;
  const mb = (bytes: number | undefined) => (bytes === undefined || Number.isNaN(bytes) || bytes === 0 ? null : Math.round(bytes / 1e5) / 10);
  const perViewerKb = (peakBytes: number, beforeBytes: number | undefined) =>
    beforeBytes === undefined || peakBytes === 0 || viewers.length === 0 ? null : Math.round(((peakBytes - beforeBytes) / viewers.length / 1024) * 10) / 10;

  generatorLoop.disable();
  const broadcastP99Ms = await readBroadcastP99(base, options.metricsToken);
  const { accounts, onProgress: _onProgress, metricsToken: _metricsToken, ...rest } = options;
  return {
    options: { ...rest, url: base, accounts: accounts.length },
    connections: {
      attempted: options.viewers,
      succeeded: viewers.length,
      failed: connectFailures,
      unexpectedDisconnects,
      reconnects,
      rejoinP95Ms: percentile(rejoinDelays, 0.95),
    },
    joins: { succeeded: joinTimes.length, failed: joinFailures, perSecond: joinSpan > 0 ? Math.round(joinTimes.length / joinSpan) : joinTimes.length },
    fanOut: Object.fromEntries(Object.entries(latency).map(([event, samples]) => [event, summarize(samples)])),
    delivery: { expected, delivered, gaps: expected - delivered, duplicates },
    viewerUpdates: {
      messagesPerViewerPerSecondMean: rates.length ? Math.round((rates.reduce((a, b) => a + b, 0) / rates.length) * 100) / 100 : 0,
      messagesPerViewerPerSecondMax: rates.length ? Math.round(Math.max(...rates) * 100) / 100 : 0,
    },
    bids: { accepted: sentBids.length, rejected: rejectedBids, resolvedPerSecond: Math.round(((sentBids.length + rejectedBids) / bidWindowSeconds) * 10) / 10 },
    chat: { posted: chatPosted },
    http: { requests: httpRequests, errors: Object.values(httpErrors).reduce((a, b) => a + b, 0), errorsByStatus: httpErrors },
    server: {
      broadcastP99Ms,
      rssBeforeMb: mb(before?.rss),
      rssPeakMb: mb(peak.rss),
      heapBeforeMb: mb(before?.heap),
      heapPeakMb: mb(peak.heap),
      eventLoopP99PeakMs: peak.lag ? Math.round(peak.lag * 10_000) / 10 : null,
      socketsPeak: peak.sockets || null,
      rssPerViewerKb: perViewerKb(peak.rss, before?.rss),
      heapPerViewerKb: perViewerKb(peak.heap, before?.heap),
    },
    invariants: { violations },
    generator: { eventLoopP99Ms: Math.round(generatorLoop.percentile(99) / 1e5) / 10, eventLoopMaxMs: Math.round(generatorLoop.max / 1e5) / 10 },
  };
}

export function formatReport(report: LoadTestReport): string {
  const lines: string[] = [];
  const row = (label: string, value: string | number | null) => lines.push(`  ${label.padEnd(34)} ${value ?? 'n/a'}`);
  lines.push(`Load test against ${report.options.url}: ${report.options.viewers} viewers on ${report.options.cars} car(s), ${report.options.durationSeconds} s steady state`);
  lines.push('Connections');
  row('attempted / succeeded / failed', `${report.connections.attempted} / ${report.connections.succeeded} / ${report.connections.failed}`);
  row('unexpected disconnects', report.connections.unexpectedDisconnects);
  row('reconnects (re-join p95)', `${report.connections.reconnects}${report.connections.rejoinP95Ms !== null ? ` (${report.connections.rejoinP95Ms} ms)` : ''}`);
  row('joins ok / failed (per second)', `${report.joins.succeeded} / ${report.joins.failed} (${report.joins.perSecond}/s)`);
  lines.push('Fan-out latency (ms, server emit -> client receive)');
  for (const [event, s] of Object.entries(report.fanOut)) row(event, s.count ? `n=${s.count} p50 ${s.p50} p95 ${s.p95} p99 ${s.p99} max ${s.max}` : 'none');
  lines.push('Delivery of bid:placed');
  row('expected / delivered', `${report.delivery.expected} / ${report.delivery.delivered} (${report.delivery.expected ? ((report.delivery.delivered / report.delivery.expected) * 100).toFixed(2) : '100.00'}%)`);
  row('gaps / duplicates', `${report.delivery.gaps} / ${report.delivery.duplicates}`);
  row('car:viewers per viewer per second', `mean ${report.viewerUpdates.messagesPerViewerPerSecondMean}, max ${report.viewerUpdates.messagesPerViewerPerSecondMax}`);
  lines.push('Writes');
  row('bids accepted / rejected', `${report.bids.accepted} / ${report.bids.rejected} (${report.bids.resolvedPerSecond} resolved/s)`);
  row('chat messages posted', report.chat.posted);
  row('HTTP requests / errors', `${report.http.requests} / ${report.http.errors} ${JSON.stringify(report.http.errorsByStatus)}`);
  row('invariant violations', report.invariants.violations.length === 0 ? 'none' : report.invariants.violations.join('; '));
  lines.push('Server (from /metrics)');
  row('RSS before / peak (MB)', `${report.server.rssBeforeMb} / ${report.server.rssPeakMb}`);
  row('heap before / peak (MB)', `${report.server.heapBeforeMb} / ${report.server.heapPeakMb}`);
  row('RSS / heap per viewer (KB)', `${report.server.rssPerViewerKb} / ${report.server.heapPerViewerKb}`);
  row('event-loop delay p99 peak (ms)', report.server.eventLoopP99PeakMs);
  row('sockets peak', report.server.socketsPeak);
  row('broadcast time p99 (ms, bucket bound)', JSON.stringify(report.server.broadcastP99Ms));
  lines.push('Load generator (shares the machine)');
  row('event-loop delay p99 / max (ms)', `${report.generator.eventLoopP99Ms} / ${report.generator.eventLoopMaxMs}`);
  return lines.join('\n');
}
