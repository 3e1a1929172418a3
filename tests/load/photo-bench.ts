/**
 * `npm run bench:photos`: what photo uploads cost the server.
 *
 *   npm run bench:photos -- [--seconds 20] [--concurrency 1,2,4]
 *
 * Starts a server process of its own on the embedded database, then:
 * 1. uploads a 4000 × 3000 JPEG of about 5 MB ten times, one at a time: time to 201, and the
 *    server's peak resident memory (VmHWM) before and after;
 * 2. uploads it continuously from N clients at once for --seconds each: uploads per second and
 *    the server's worst event-loop delay over the run (from its /metrics), which shows whether
 *    decoding and encoding stay off the event loop;
 * 3. lists twelve cars with a photo each and weighs the listing page: its JSON and every card
 *    image it shows.
 * The photos are synthetic (a drawn car with sensor-like grain), as no camera photos exist here.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, chooseBenchDatabase, percentile } from '../helpers/bench.ts';
import { insertListing } from '../helpers/escrow.ts';
import { syntheticPhoto } from '../helpers/photos.ts';
import { insertAccounts, serverDatabase, signIn } from '../helpers/server-database.ts';
import { startServerProcess } from '../helpers/server-process.ts';

const values = benchArgs('Usage: npm run bench:photos -- [--seconds 20] [--concurrency 1,2,4]', {
  seconds: { type: 'string', default: '20' },
  concurrency: { type: 'string', default: '1,2,4' },
});
const SECONDS = Number(values.seconds);
const LEVELS = values.concurrency.split(',').map(Number);

// A photo of camera size and file size: grain keeps JPEG from compressing it to nothing.
let photo = await syntheticPhoto({ width: 4000, height: 3000 });
for (let quality = 92; photo.length < 4.5 * 1024 * 1024 && quality <= 100; quality += 2) {
  const sharp = (await import('sharp')).default;
  photo = await sharp(photo).jpeg({ quality, chromaSubsampling: '4:4:4' }).toBuffer();
}

chooseBenchDatabase(false);
const dataDir = mkdtempSync(join(tmpdir(), 'lm-photo-bench-'));
const database = await serverDatabase(dataDir, async (db) => {
  const [seller] = await insertAccounts(db, ['Bench Photos']);
  const cars: number[] = [];
  for (let i = 0; i < 200; i++) cars.push((await insertListing(db, seller!, { make: 'Bench', model: `Photo ${i}` })).id);
  const galleryCars: number[] = [];
  for (let i = 0; i < 12; i++) galleryCars.push((await insertListing(db, seller!, { make: 'Gallery', model: `Card ${i}` })).id);
  return { seller: seller!, cars, galleryCars };
});
const { seller, cars, galleryCars } = database.prepared;

const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'error' });
process.on('exit', () => server.process.kill('SIGKILL'));
const token = await signIn(server.url, seller);

const peakRssMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))![1]) / 1024;
const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))![1]) / 1024;
/** The server's worst event-loop delay since the previous call (prom-client resets it on each scrape). */
async function eventLoopMaxMs(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? NaN) * 1000;
}

let carIndex = 0;
let uploadsOnCar = 0;
function nextCar(): number {
  if (uploadsOnCar === 20) {
    carIndex += 1;
    uploadsOnCar = 0;
  }
  uploadsOnCar += 1;
  return cars[carIndex]!;
}
async function uploadOnce(carId = nextCar()): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  const started = performance.now();
  const res = await fetch(`${server.url}/api/cars/${carId}/images`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
  return performance.now() - started;
}

console.log(`\nPhoto: ${photo.length.toLocaleString('en-US')} bytes, 4000 × 3000 JPEG`);
const rssBefore = rssMb();
const peakBefore = peakRssMb();
await eventLoopMaxMs();
const sequential: number[] = [];
for (let i = 0; i < 10; i++) sequential.push(await uploadOnce());
console.log(`\n1. One at a time (10 uploads): p50 ${percentile(sequential, 50).toFixed(0)} ms, max ${Math.max(...sequential).toFixed(0)} ms to 201`);
console.log(`   server RSS before ${rssBefore.toFixed(0)} MB, peak before ${peakBefore.toFixed(0)} MB, peak after ${peakRssMb().toFixed(0)} MB; worst event-loop delay ${(await eventLoopMaxMs()).toFixed(0)} ms`);

console.log('\n2. Continuous uploads\n\n| Clients | Uploads | Uploads/s | p50 ms | p99 ms | Worst event-loop delay ms | Peak RSS MB |\n|---:|---:|---:|---:|---:|---:|---:|');
for (const clients of LEVELS) {
  await eventLoopMaxMs();
  const times: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) times.push(await uploadOnce());
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  console.log(
    `| ${clients} | ${times.length} | ${(times.length / elapsed).toFixed(2)} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 99).toFixed(0)} | ${(await eventLoopMaxMs()).toFixed(0)} | ${peakRssMb().toFixed(0)} |`,
  );
}

// 3. The listing page with a photo on each of its twelve cards.
for (const carId of galleryCars) await uploadOnce(carId);
const page = await fetch(`${server.url}/api/cars?search=gallery&limit=12`);
const json = await page.text();
const items = (JSON.parse(json) as { data: { cars: { primary_image: string | null }[] } }).data.cars;
const cardSizes = await Promise.all(items.map(async (car) => (car.primary_image ? (await (await fetch(`${server.url}${car.primary_image}`)).arrayBuffer()).byteLength : 0)));
console.log(
  `\n3. Listing page of ${items.length} cards: JSON ${json.length.toLocaleString('en-US')} bytes, card images ${cardSizes.reduce((a, b) => a + b, 0).toLocaleString('en-US')} bytes in all, largest ${Math.max(...cardSizes).toLocaleString('en-US')} bytes (limit 81,920)`,
);
await server.kill();
process.exit(0);
