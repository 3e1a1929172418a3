import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Cluster, Redis } from 'ioredis';
import { Server } from 'socket.io';
import { io as connectClient, type Socket } from 'socket.io-client';
import { createAdapter as createStreamsAdapter } from '@socket.io/redis-streams-adapter';
import { createShardedAdapter } from '@socket.io/redis-adapter';
import { ensureServerBuild } from '../../server/build.mjs';
import { benchArgs, percentile } from '../helpers/bench.ts';
import { prepareDatabaseTemplate } from '../helpers/database.ts';
import { HostsRig, RigBidder, RigViewer, hostsRigUnavailable } from '../helpers/hosts-rig.ts';
import { PrivateRedis } from '../helpers/private-redis.ts';
import { RedisCluster } from '../helpers/redis-cluster.ts';
import { waitUntil } from '../helpers/sockets.ts';

/**
 * npm run bench:hosts: three hosts of two workers on a Redis Cluster (3 primaries, 3 replicas)
 * behind HAProxy, WebSocket-only viewers spread over cars. Prints bid→push p50/p99 across hosts,
 * Redis commands/s at 6, 4 and 2 processes (the processes exchanging presence, as hosts are
 * killed), reconnect p95 of the viewers of a killed host, and Redis egress per process of the
 * sharded adapter beside one stream (the streams adapter) for the same broadcasts (six bare
 * Socket.IO servers on each, same rooms, same payloads).
 */
const args = benchArgs(
  'npm run bench:hosts -- [--viewers 3000] [--cars 30] [--bids 60]\nNeeds DATABASE_URL-reachable PostgreSQL (default the local one), haproxy, redis-server 7.',
  {
    viewers: { type: 'string', default: '3000' },
    cars: { type: 'string', default: '30' },
    bids: { type: 'string', default: '60' },
  },
);
const VIEWERS = Number(args.viewers);
const CARS = Number(args.cars);
const BIDS = Number(args.bids);
process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/postgres';

const unavailable = hostsRigUnavailable();
if (unavailable) {
  console.log(`bench:hosts cannot run here: ${unavailable}`);
  process.exit(1);
}
await ensureServerBuild();
await prepareDatabaseTemplate();

const started = Date.now();
const out: string[] = [];
const note = (line: string) => {
  console.log(line);
  out.push(line);
};

// 1. Egress: the same broadcasts through one stream and through sharded channels.
{
  const egress = await adapterEgress();
  note(`\n## Redis egress to the processes, same broadcasts (${egress.broadcasts} broadcasts of ${egress.payloadBytes} B each kind, ${egress.rooms} rooms, 6 processes)`);
  note('| Rooms broadcast to | one stream, per process | sharded, per process | ratio |');
  note('|---|---:|---:|---:|');
  for (const kind of ['hot', 'tail'] as const) {
    const label = kind === 'hot' ? 'hot (sockets on all 6 processes)' : 'tail (sockets on 2 of 6)';
    note(`| ${label} | ${kb(egress.stream[kind] / 6)} KB | ${kb(egress.sharded[kind] / 6)} KB | ${(egress.stream[kind] / egress.sharded[kind]).toFixed(1)}× |`);
  }
  const sum = (e: Egress) => e.hot + e.tail;
  note(`Both together: one stream ${kb(sum(egress.stream) / 6)} KB, sharded ${kb(sum(egress.sharded) / 6)} KB per process: **${(sum(egress.stream) / sum(egress.sharded)).toFixed(1)}×**`);
}

// 2. The rig.
const rig = await HostsRig.start({ redisBasePort: 7131, proxyPort: 7231 });
const viewers: RigViewer[] = [];
try {
  const { cars, bidders } = await rig.prepare({ bidders: 4, cars: CARS });
  note(`\nRig up in ${((Date.now() - started) / 1000).toFixed(0)} s (3 hosts × 2 workers, Redis Cluster 3+3, HAProxy)`);
  // Zipf-like: car k gets a share ∝ 1/(k+1).
  const weights = cars.map((_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const connectStart = Date.now();
  for (let k = 0; k < cars.length; k++) {
    const n = k === cars.length - 1 ? VIEWERS - viewers.length : Math.round((VIEWERS * weights[k]!) / total);
    for (let i = 0; i < n; i++) viewers.push(new RigViewer(rig.url, cars[k]!.id));
    await waitUntil(() => viewers.every((v) => v.joined), 60_000, 'viewers to join');
  }
  note(`${viewers.length} viewers joined in ${((Date.now() - connectStart) / 1000).toFixed(1)} s over ${cars.length} cars (hottest ${viewers.filter((v) => v.carId === cars[0]!.id).length})`);

  // Bids on every car in turn (the hottest most often), one at a time.
  const bidderOf = new Map(cars.map((car) => [car.id, new RigBidder(rig.url, car.id, car.price, bidders)]));
  const order = Array.from({ length: BIDS }, (_, i) => cars[i % 3 === 0 ? 0 : i % cars.length]!.id);
  const bidStart = Date.now();
  for (const carId of order) await bidderOf.get(carId)!.bid();
  const bidSeconds = (Date.now() - bidStart) / 1000;
  await waitUntil(() => viewers.every((v) => v.holds(bidderOf.get(viewerCar(v))!.accepted)), 20_000, 'every push');
  const bidToPush: number[] = [];
  const emitToPush: number[] = [];
  for (const viewer of viewers) {
    const bidder = bidderOf.get(viewerCar(viewer))!;
    for (const [id, at] of viewer.arrivedAt) {
      const sent = bidder.sentAt.get(id);
      if (sent !== undefined) bidToPush.push(at - sent);
    }
    emitToPush.push(...viewer.latencies);
  }
  note(`\n## Bid → push across hosts (${BIDS} bids in ${bidSeconds.toFixed(1)} s, ${bidToPush.length} pushes)`);
  note('| Measure | p50 ms | p99 ms | max ms |');
  note('|---|---:|---:|---:|');
  note(`| POST sent → push received | ${percentile(bidToPush, 50)} | ${percentile(bidToPush, 99)} | ${Math.max(...bidToPush)} |`);
  note(`| server emit → push received | ${percentile(emitToPush, 50)} | ${percentile(emitToPush, 99)} | ${Math.max(...emitToPush)} |`);

  // 3. Redis commands/s with 6, 4, 2 processes (no traffic: presence and topology refreshes), killing hosts in turn.
  const commandsPerSecond = async () => {
    const primaries = rig.redis.primaries();
    const before = rig.redis.sumInfo('total_commands_processed', primaries);
    const t0 = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const after = rig.redis.sumInfo('total_commands_processed', primaries);
    // The INFO calls themselves count once per node and read.
    return (after - before - primaries.length) / ((Date.now() - t0) / 1000);
  };
  const rates: [number, number][] = [[6, await commandsPerSecond()]];
  const reconnectStart = viewers.map((v) => v.reconnects);
  await rig.killHost(2);
  const moved = () => viewers.filter((v, i) => v.reconnects > reconnectStart[i]!).length;
  // About a third of the viewers were on the killed host: wait until they are back, and all are joined.
  await waitUntil(() => moved() >= viewers.length / 6 && viewers.every((v) => v.joined), 60_000, 'the killed host’s viewers to be joined again');
  await waitUntil(() => viewers.every((v) => v.joined), 60_000, 'every viewer to be joined');
  const reconnectMs = viewers.flatMap((v, i) => (v.reconnects > reconnectStart[i]! ? v.reconnectMs.slice(-1) : []));
  // Presence of the dead host's processes ages out (5 s) before the next window.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  rates.push([4, await commandsPerSecond()]);
  await rig.killHost(1);
  await waitUntil(() => viewers.every((v) => v.joined), 60_000, 'viewers to be joined again on the last host');
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  rates.push([2, await commandsPerSecond()]);
  // Every viewer still holds every accepted bid after the moves.
  for (const carId of order.slice(0, 5)) await bidderOf.get(carId)!.bid();
  await waitUntil(() => viewers.every((v) => v.holds(bidderOf.get(viewerCar(v))!.accepted)), 20_000, 'every accepted bid after the hosts were lost');

  note('\n## Redis commands/s, viewers connected, no traffic');
  note('| Processes | commands/s (primaries) | per process |');
  note('|---:|---:|---:|');
  for (const [processes, rate] of rates) note(`| ${processes} | ${rate.toFixed(0)} | ${(rate / processes).toFixed(1)} |`);
  note(`\n## A host lost (kill -9 of its primary and 2 workers)`);
  note(`${reconnectMs.length} viewers reconnected through HAProxy: p50 ${percentile(reconnectMs, 50)} ms, p95 ${percentile(reconnectMs, 95)} ms, max ${Math.max(...reconnectMs)} ms (lost → joined again and resynced); every viewer holds every accepted bid afterwards.`);
} finally {
  for (const viewer of viewers) viewer.close();
  await rig.stop();
}
note(`\nTotal ${((Date.now() - started) / 1000).toFixed(0)} s`);

function viewerCar(viewer: RigViewer): number {
  return viewer.carId;
}

interface Egress {
  /** Bytes out of Redis to clients (replication left out) for broadcasts to rooms on every process. */
  hot: number;
  /** The same for rooms on two of the six processes. */
  tail: number;
}

/** Bytes Redis sent its clients; a replica's stream is left out (the single Redis has none). */
function clientEgress(info: string): number {
  const field = (name: string) => Number(new RegExp(`${name}:(\\d+)`).exec(info)?.[1] ?? 0);
  return field('total_net_output_bytes') - field('total_net_repl_output_bytes');
}

function kb(bytes: number): string {
  return (bytes / 1024).toFixed(0);
}

/**
 * Six bare Socket.IO servers on each adapter, the same rooms on each: a few hot rooms on every
 * process and a tail of rooms on two processes each, as Zipf traffic spreads them. The same
 * broadcasts go through both; Redis egress is INFO's total_net_output_bytes.
 */
async function adapterEgress(): Promise<{ stream: Egress; sharded: Egress; broadcasts: number; rooms: number; payloadBytes: number }> {
  const ROOMS = 30;
  const HOT = 5;
  const BROADCASTS = 600;
  const payload = { bid: { id: 1, carId: 1, amount: 123_456, name: 'A bidder', createdAt: new Date().toISOString() }, note: 'x'.repeat(400) };
  const payloadBytes = JSON.stringify(payload).length;
  const roomsOf = (server: number) => Array.from({ length: ROOMS }, (_, r) => r).filter((r) => r < HOT || r % 6 === server || (r + 1) % 6 === server);

  const run = async (adapterFor: (i: number) => Promise<{ adapter: unknown; close: () => Promise<void> }>, egress: () => Promise<number>) => {
    const servers: { io: Server; http: HttpServer; close: () => Promise<void> }[] = [];
    const clients: Socket[] = [];
    let received = 0;
    let expected = 0;
    for (let i = 0; i < 6; i++) {
      const { adapter, close } = await adapterFor(i);
      const http = createServer();
      const io = new Server(http, { transports: ['websocket'], adapter: adapter as never });
      io.on('connection', (socket) => void socket.join(`car:${socket.handshake.query.room as string}`));
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      servers.push({ io, http, close });
      for (const r of roomsOf(i)) {
        const client = connectClient(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ['websocket'], query: { room: String(r) } });
        client.on('bid', () => (received += 1));
        clients.push(client);
      }
    }
    await waitUntil(() => servers.reduce((n, s) => n + s.io.of('/').sockets.size, 0) === clients.length, 20_000, 'bare clients');
    await waitUntil(() => servers.every((s) => s.io.of('/').adapter.rooms.size >= roomsOf(0).length), 5_000, 'rooms');
    // Subscriptions settle before counting.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const phase = async (roomOf: (b: number) => number) => {
      const before = await egress();
      for (let b = 0; b < BROADCASTS; b++) {
        const room = roomOf(b);
        expected += [0, 1, 2, 3, 4, 5].filter((i) => roomsOf(i).includes(room)).length;
        servers[b % 6]!.io.to(`car:${room}`).emit('bid', payload);
        if (b % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await waitUntil(() => received >= expected, 30_000, `${expected} bare pushes (got ${received})`);
      return (await egress()) - before;
    };
    const bytes = { hot: await phase((b) => b % HOT), tail: await phase((b) => HOT + (b % (ROOMS - HOT))) };
    for (const client of clients) client.close();
    for (const s of servers) {
      await s.io.close();
      await s.close();
    }
    return bytes;
  };

  const single = await PrivateRedis.start();
  let stream: Egress;
  {
    const probe = new Redis(single.port, '127.0.0.1');
    try {
      stream = await run(
        async () => {
          const client = new Redis(single.port, '127.0.0.1', { maxRetriesPerRequest: null });
          return { adapter: createStreamsAdapter(client, { streamName: 'bench:socket.io' }), close: async () => void client.disconnect() };
        },
        async () => clientEgress(await probe.info('stats')),
      );
    } finally {
      probe.disconnect();
      await single.stop();
    }
  }
  const cluster = await RedisCluster.start({ basePort: 7141 });
  let sharded: Egress;
  try {
    const nodes = [{ host: '127.0.0.1', port: cluster.ports[0]! }];
    sharded = await run(
      async () => {
        const pub = new Cluster(nodes);
        const sub = new Cluster(nodes, { shardedSubscribers: true });
        return { adapter: createShardedAdapter(pub, sub, { channelPrefix: 'bench:socket.io', subscriptionMode: 'dynamic' }), close: async () => void (pub.disconnect(), sub.disconnect()) };
      },
      async () => cluster.sumInfo('total_net_output_bytes') - cluster.sumInfo('total_net_repl_output_bytes'),
    );
  } finally {
    await cluster.stop();
  }
  return { stream, sharded, broadcasts: BROADCASTS, rooms: ROOMS, payloadBytes };
}
