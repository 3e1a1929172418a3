/**
 * `npm run bench:auction`: how fast an auction's end reaches its viewers, and a bid storm
 * across the end.
 *
 *   npm run bench:auction -- [--viewers 1000] [--rounds 5] [--postgres]
 *
 * Starts a server process of its own (embedded database, or with --postgres a fresh database on
 * BENCH_DATABASE_URL's server), connects --viewers Socket.IO viewers to one auction at a time,
 * and measures, per viewer, the time from the auction's final end (the server's) to
 * `auction:ended` arriving. Then 50 bids from 10 bidders are sent across the end of another
 * auction, and every answer is checked against the server's timestamps.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { PlacedBid } from '@common/schemas/bids.ts';
import { benchArgs, chooseBenchDatabase, LATENCY_TABLE_HEAD, latencyRow } from '../helpers/bench.ts';
import { http, insertAccounts, serverDatabase, signIn } from '../helpers/server-database.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { sleep } from '../helpers/sockets.ts';

const values = benchArgs('Usage: npm run bench:auction -- [--viewers 1000] [--rounds 5] [--postgres]', {
  viewers: { type: 'string', default: '1000' },
  rounds: { type: 'string', default: '5' },
  postgres: { type: 'boolean', default: false },
});
const VIEWERS = Number(values.viewers);
const ROUNDS = Number(values.rounds);

chooseBenchDatabase(values.postgres);
const dataDir = mkdtempSync(join(tmpdir(), 'lm-auction-bench-'));
const database = await serverDatabase(dataDir, (db) => insertAccounts(db, ['Bench Seller', ...Array.from({ length: 10 }, (_, i) => `Bench Bidder ${i}`)]));
const server = await startServerProcess({
  DATA_DIR: dataDir,
  DATABASE_URL: database.url,
  AUCTION_MIN_SECONDS: '2',
  AUCTION_EXTENSION_SECONDS: '2',
  LOG_LEVEL: 'error',
});
process.on('exit', () => server.process.kill('SIGKILL'));
const [sellerToken, ...bidderTokens] = await Promise.all(database.prepared.map((account) => signIn(server.url, account)));

async function listAuction(endsInSeconds: number, price = 50_000): Promise<CarDetail> {
  const res = await http<CarDetail>(server.url, sellerToken!, 'POST', '/api/cars', {
    make: 'Bench',
    model: `Auction ${Date.now()}`,
    year: 2020,
    price,
    mileage: 1_000,
    condition: 'Excellent',
    location: 'Bench',
    description: 'Benchmark auction.',
    features: [],
    bodyStyle: 'coupe',
    auction: { endsAt: new Date(Date.now() + endsInSeconds * 1000).toISOString() },
  });
  if (res.status !== 201) throw new Error(`listing answered ${res.status}`);
  return res.body.data;
}

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

// Viewers, connected once and joined to each round's auction.
const viewers: Socket[] = [];
for (let i = 0; i < VIEWERS; i++) {
  const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true });
  viewers.push(socket);
}
await Promise.all(viewers.map((s) => (s.connected ? Promise.resolve() : new Promise<void>((resolve) => s.once('connect', () => resolve())))));

const latencies: number[] = [];
const serverLatencies: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const car = await listAuction(6);
  await Promise.all(viewers.map((s) => s.timeout(10_000).emitWithAck('car:join', { carId: car.id })));
  const placed = await http<PlacedBid>(server.url, bidderTokens[0]!, 'POST', '/api/bids', { carId: car.id, amount: car.price });
  const finalEnd = Date.parse(placed.body.data.car.endsAt ?? car.auction!.endsAt);
  const arrivals = await Promise.all(
    viewers.map(
      (s) =>
        new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('no auction:ended within 30 s')), 30_000);
          s.once('auction:ended', (event: { emittedAt: number }) => {
            clearTimeout(timer);
            if (s === viewers[0]) serverLatencies.push(event.emittedAt - finalEnd);
            resolve(Date.now());
          });
        }),
    ),
  );
  latencies.push(...arrivals.map((at) => at - finalEnd));
  await Promise.all(viewers.map((s) => s.timeout(10_000).emitWithAck('car:leave', { carId: car.id })));
}
for (const socket of viewers) socket.close();

// A storm of 50 bids across the end: 25 at once just before it (each in time moves the end two
// seconds past itself), then 25 at once around the end those moved it to.
const stormCar = await listAuction(4, 10_000);
const bidAt = (i: number) => http<PlacedBid>(server.url, bidderTokens[i % bidderTokens.length]!, 'POST', '/api/bids', { carId: stormCar.id, amount: 10_000 + i * 1_000 });
await sleep(Math.max(0, Date.parse(stormCar.auction!.endsAt) - Date.now() - 300));
const firstWave = await Promise.all(Array.from({ length: 25 }, (_, i) => bidAt(i)));
const movedEnd = Math.max(...firstWave.filter((r) => r.status === 201).map((r) => Date.parse(r.body.data.car.endsAt!)));
await sleep(Math.max(0, movedEnd - Date.now() - 20));
const secondWave = await Promise.all(Array.from({ length: 25 }, (_, i) => bidAt(25 + i)));
const storm = [...firstWave, ...secondWave];
let closed: CarDetail;
do {
  await sleep(250);
  closed = (await http<CarDetail>(server.url, null, 'GET', `/api/cars/${stormCar.id}`)).body.data;
} while (!closed.auction?.ended);
const finalEnd = Date.parse(closed.auction.endsAt);
const accepted = storm.filter((r) => r.status === 201).map((r) => r.body.data);
const late = storm.filter((r) => r.body.code === 'AUCTION_ENDED').map((r) => r.body.details as { decidedAt: string });
const tooLow = storm.filter((r) => r.body.code === 'BID_TOO_LOW').length;
const acceptedAfterEnd = accepted.filter((a) => Date.parse(a.bid.timestamp) >= finalEnd).length;
const refusedInTime = late.filter((r) => Date.parse(r.decidedAt) < finalEnd).length;

await server.kill();
await database.drop();
loop.disable();

console.log(`\nAuction close on ${database.url ? 'PostgreSQL' : 'the embedded database'}, ${VIEWERS} viewers in the room, ${ROUNDS} auctions`);
console.log(`\n${LATENCY_TABLE_HEAD}`);
console.log(latencyRow('final end → auction:ended sent by the server', serverLatencies));
console.log(latencyRow('final end → auction:ended at a viewer', latencies));
console.log(`\nGenerator event-loop delay: p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`);
console.log(
  `\nBid storm across the end: ${storm.length} bids, ${accepted.length} accepted, ${late.length} refused as late, ${tooLow} refused as too low; ` +
    `accepted at or after the final end: ${acceptedAfterEnd}; refused as late but decided before the final end: ${refusedInTime}; ` +
    `final end moved ${closed.auction.extensions} times to ${closed.auction.endsAt}.`,
);
process.exit(acceptedAfterEnd === 0 && refusedInTime === 0 ? 0 : 1);
