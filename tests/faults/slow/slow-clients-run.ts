/**
 * The 1,000 slow clients fault, run by tests/faults/slow/slow-clients.test.ts inside a private network
 * namespace (so the server and its clients share a loopback of their own; see that file). It
 * starts the server, opens the stalled clients and two normal readers on one car, drives a chat
 * and bid fan-out into that car until every stalled client has been let go, and prints one line
 * `REPORT {json}` with what it saw. Progress goes to standard error.
 */
import { asc, eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { cars } from '../../../db/schema/index.ts';
import { bidIncrement, minimumBid } from '@common/bid-rules.ts';
import { insertAccounts, signIn } from '../../helpers/server-database.ts';
import { startServerProcess } from '../../helpers/server-process.ts';
import { connectSocket, emitAck, openStalledClient, sleep, waitUntil, type StalledClient } from '../../helpers/sockets.ts';
import { removeTempDirs, tempDir } from './helpers/temp-dirs.ts';
import { prepareServerDatabase } from './helpers/database.ts';
import { PrivatePostgres, privatePostgresAvailable } from './helpers/private-postgres.ts';
import { ServerLog, readMetrics } from './helpers/server-log.ts';

export interface SlowClientsReport {
  sockets: { socketIo: number; feed: number; openSeconds: number };
  limits: { backlogKb: number; backlogMessages: number };
  kernelBuffers: string;
  database: string;
  rss: { baselineMb: number; peakMb: number; endMb: number; growthMb: number; boundMb: number };
  heap: { baselineMb: number; peakMb: number };
  dropped: { socketIo: number; feed: number; seconds: number };
  closedSeenByClients: number;
  connectedAtEnd: number;
  fanOut: { chatPosted: number; bidsAccepted: number; seconds: number; messagesPerSecond: number };
  reader: { socketIoMissing: number; feedMissing: number; socketIoDisconnected: boolean; feedClosed: boolean };
  serverErrors: Record<string, number>;
}

const SOCKETS = Number(process.env.SLOW_CLIENTS ?? 1_000);
const BACKLOG_KB = Number(process.env.SLOW_CLIENTS_BACKLOG_KB ?? 64);
const BACKLOG_MESSAGES = Number(process.env.SLOW_CLIENTS_BACKLOG_MESSAGES ?? 50);
const CHATTERS = 4;
/** Long enough to make every frame weigh about a kilobyte, as a real discussion message may. */
const MESSAGE = `${'Service history, paint meter readings and the tyre dates, please. '.repeat(15)}`.slice(0, 1_000);
const progress = (line: string) => process.stderr.write(`[slow-clients] ${line}\n`);

// PostgreSQL in a process of its own when it can be started here: the embedded database runs
// its queries on the server's own thread, which the fan-out needs.
const pg = privatePostgresAvailable() ? await PrivatePostgres.start() : null;
const dataDir = tempDir('lm-fault-slow-');
const { accounts, car } = await prepareServerDatabase({ databaseUrl: pg?.url ?? null, dataDir }, async (db) => ({
  accounts: await insertAccounts(db, [...Array.from({ length: CHATTERS }, (_, i) => `Chatter ${i + 1}`), 'Bidder One', 'Bidder Two']),
  car: (await db.select({ id: cars.id, price: cars.price, highestBid: cars.highestBid }).from(cars).where(eq(cars.status, 'active')).orderBy(asc(cars.id)).limit(1))[0]!,
}));
const log = new ServerLog();
const server = await startServerProcess(
  {
    DATA_DIR: dataDir,
    DATABASE_URL: pg?.url ?? '',
    SOCKET_MAX_BACKLOG_KB: String(BACKLOG_KB),
    SOCKET_MAX_BACKLOG_MESSAGES: String(BACKLOG_MESSAGES),
    JWT_SECRET: 'slow-clients-secret-0123456789abcdefghijk',
    RATE_LIMIT_LOGIN_PER_IP: '1000',
    LOG_LEVEL: 'info',
  },
  { onLogLine: log.onLine },
);

try {
  const tokens = await Promise.all(accounts.map((a) => signIn(server.url, a)));

  // The normal readers: one on Socket.IO, one on the plain feed.
  const reader = await connectSocket(server.url);
  if (!(await emitAck(reader, 'car:join', { carId: car.id })).ok) throw new Error('the reader could not join');
  const readChat = new Set<number>();
  const readBids = new Set<number>();
  reader.on('chat:message', (m: { id: number }) => readChat.add(m.id));
  reader.on('bid:placed', (e: { bid: { id: number } }) => readBids.add(e.bid.id));
  let readerDisconnected = false;
  reader.on('disconnect', () => (readerDisconnected = true));
  const feed = new WebSocket(`${server.url.replace('http', 'ws')}/api/stream`, { origin: server.url });
  const feedChat = new Set<number>();
  const feedBids = new Set<number>();
  let feedClosed = false;
  await new Promise<void>((resolve, reject) => {
    feed.once('error', reject);
    feed.once('open', () => feed.send(JSON.stringify({ subscribe: car.id })));
    feed.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as { event: string; data: { id: number; bid: { id: number } } };
      if (frame.event === 'subscribed') resolve();
      if (frame.event === 'chat:message') feedChat.add(frame.data.id);
      if (frame.event === 'bid:placed') feedBids.add(frame.data.bid.id);
    });
    feed.once('close', () => (feedClosed = true));
  });

  // The stalled clients: half Socket.IO over WebSocket, half the plain feed, all on the car.
  const stalled: StalledClient[] = [];
  const openStarted = performance.now();
  for (let i = 0; i < SOCKETS; i += 50) {
    stalled.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, SOCKETS - i) }, (_, j) => openStalledClient(server.url, car.id, (i + j) % 2 === 0 ? 'websocket' : 'feed', 30_000, { stalled: false })),
      )),
    );
  }
  let closedSeen = 0;
  for (const client of stalled) void client.closed.then(() => (closedSeen += 1));
  const openSeconds = Math.round((performance.now() - openStarted) / 100) / 10;
  progress(`${stalled.length} clients and 2 readers on car ${car.id}, opened in ${openSeconds} s`);
  await sleep(1_000);
  const baseline = await readMetrics(server.url);
  // All stop reading together, just before the fan-out: a Socket.IO client that stops answering
  // pings is closed by the server after 20-40 s anyway, which must not be what ends them here.
  for (const client of stalled) client.stall();
  const samples: { rss: number; heap: number; lagMs: number }[] = [];
  const dropped = async () => {
    const m = await readMetrics(server.url);
    samples.push({ rss: m('process_resident_memory_bytes'), heap: m('nodejs_heap_size_used_bytes'), lagMs: Math.round(m('nodejs_eventloop_lag_max_seconds') * 1000) });
    return { socketIo: m('realtime_slow_consumers_dropped_total', 'transport="socket.io"'), feed: m('realtime_slow_consumers_dropped_total', 'transport="feed"'), connected: m('socketio_connected_sockets') };
  };

  // The fan-out: chatters post back to back while two bidders raise the price in turn.
  const posted = new Set<number>();
  const accepted = new Set<number>();
  let running = true;
  const post = async (path: string, token: string, body: object) => {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { data: { id: number; bid: { id: number } } } };
  };
  const fanOutStarted = performance.now();
  let amount = minimumBid(car.price, car.highestBid);
  const workers = [
    ...tokens.slice(0, CHATTERS).map(async (token) => {
      while (running) {
        const res = await post('/api/chat', token, { carId: car.id, message: MESSAGE });
        if (res.status === 201) posted.add(res.body.data.id);
      }
    }),
    (async () => {
      for (let turn = 0; running; turn++) {
        const res = await post('/api/bids', tokens[CHATTERS + (turn % 2)]!, { carId: car.id, amount });
        if (res.status === 201) accepted.add(res.body.data.bid.id);
        amount += bidIncrement(amount);
        await sleep(100);
      }
    })(),
  ];
  let droppedAt = 0;
  let last = { socketIo: 0, feed: 0, connected: 0 };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await sleep(500);
    last = await dropped();
    if (!droppedAt && last.socketIo + last.feed >= SOCKETS) droppedAt = performance.now();
    if (droppedAt && performance.now() - droppedAt > 3_000) break;
    const sample = samples.at(-1)!;
    progress(`${Math.round((performance.now() - fanOutStarted) / 1000)} s: ${posted.size} chat, ${accepted.size} bids; dropped socket.io ${last.socketIo} feed ${last.feed}; rss ${Math.round(sample.rss / 1e6)} MB, server event-loop lag max ${sample.lagMs} ms`);
  }
  running = false;
  await Promise.all(workers);
  const fanOutSeconds = (performance.now() - fanOutStarted) / 1000;

  // The readers get every message, however many clients were let go around them.
  await waitUntil(() => [...posted].every((id) => readChat.has(id) && feedChat.has(id)) && [...accepted].every((id) => readBids.has(id) && feedBids.has(id)), 15_000, 'the readers to catch up').catch(() => {});
  // Reading again, each stalled client finds its connection ended by the server.
  for (const client of stalled) client.resume();
  await waitUntil(() => closedSeen === stalled.length, 30_000, 'the stalled clients to see their connections closed').catch(() => {});
  const end = await readMetrics(server.url);
  const peak = samples.reduce((acc, s) => ({ rss: Math.max(acc.rss, s.rss), heap: Math.max(acc.heap, s.heap) }), { rss: 0, heap: 0 });
  const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
  const report: SlowClientsReport = {
    sockets: { socketIo: Math.ceil(SOCKETS / 2), feed: Math.floor(SOCKETS / 2), openSeconds },
    limits: { backlogKb: BACKLOG_KB, backlogMessages: BACKLOG_MESSAGES },
    kernelBuffers: process.env.SLOW_CLIENTS_KERNEL_BUFFERS ?? 'host defaults',
    database: pg ? 'PostgreSQL' : 'embedded',
    rss: {
      baselineMb: mb(baseline('process_resident_memory_bytes')),
      peakMb: mb(peak.rss),
      endMb: mb(end('process_resident_memory_bytes')),
      growthMb: mb(peak.rss - baseline('process_resident_memory_bytes')),
      boundMb: mb(SOCKETS * BACKLOG_KB * 1024),
    },
    heap: { baselineMb: mb(baseline('nodejs_heap_size_used_bytes')), peakMb: mb(peak.heap) },
    dropped: { socketIo: last.socketIo, feed: last.feed, seconds: droppedAt ? Math.round((droppedAt - fanOutStarted) / 100) / 10 : -1 },
    closedSeenByClients: closedSeen,
    connectedAtEnd: end('socketio_connected_sockets'),
    fanOut: { chatPosted: posted.size, bidsAccepted: accepted.size, seconds: Math.round(fanOutSeconds), messagesPerSecond: Math.round((posted.size + accepted.size * 2) / fanOutSeconds) },
    reader: {
      socketIoMissing: [...posted].filter((id) => !readChat.has(id)).length + [...accepted].filter((id) => !readBids.has(id)).length,
      feedMissing: [...posted].filter((id) => !feedChat.has(id)).length + [...accepted].filter((id) => !feedBids.has(id)).length,
      socketIoDisconnected: readerDisconnected,
      feedClosed,
    },
    serverErrors: log.errorSummary(),
  };
  reader.close();
  feed.close();
  for (const client of stalled) client.terminate();
  console.log(`REPORT ${JSON.stringify(report)}`);
} finally {
  await server.kill('SIGKILL');
  await pg?.destroy();
  removeTempDirs();
}
process.exit(0);
