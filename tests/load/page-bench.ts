/**
 * `npm run bench:pages`: what a page drawn on the server costs, beside the API read it is drawn from.
 *
 *   npm run bench:pages -- [--duration 10] [--connections 20] [--rate 1000] [--rate-seconds 30]
 *
 * Starts a production-like server (NODE_ENV=production, the built web app, a fresh embedded
 * database with the sample catalogue), then with autocannon at --connections concurrent
 * requests for --duration seconds each: `GET /api/cars/:id` (today's read of a car), the car's
 * page `/car/:id`, the listing `/` and `/testimonials`; latency p50/p99 and requests per second.
 * Autocannon times each response to its last byte, so the figures bound the first byte from above.
 * Then memory: the car page at a fixed --rate per second for --rate-seconds, the server's resident
 * memory (RSS, from /proc) sampled every second; a bounded page cache shows as a flat line.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { CarListItem } from '@common/schemas/cars.ts';
import { ensureClientBuild } from '../../server/src/lib/client-build.ts';
import { startServerProcess } from '../helpers/server-process.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    rate: { type: 'string', default: '1000' },
    'rate-seconds': { type: 'string', default: '30' },
  },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const RATE = Number(values.rate);
const RATE_SECONDS = Number(values['rate-seconds']);

ensureClientBuild();
const dataDir = mkdtempSync(join(tmpdir(), 'lm-page-bench-'));
const server = await startServerProcess({ DATA_DIR: dataDir, SERVE_CLIENT: 'true', NODE_ENV: 'production', LOG_LEVEL: 'error' });
process.on('exit', () => {
  server.process.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const listing = (await (await fetch(`${server.url}/api/cars?limit=50`)).json()) as { data: { cars: CarListItem[] } };
const car = listing.data.cars.find((c) => c.auction === null) ?? listing.data.cars[0]!;

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function measure(path: string) {
  // A warm-up second, so every figure is of a server that has drawn the page once.
  await autocannon({ url: `${server.url}${path}`, connections: 2, duration: 1 });
  const result = await autocannon({ url: `${server.url}${path}`, connections: CONNECTIONS, duration: DURATION });
  return {
    path,
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: Math.round(result.requests.average),
    non2xx: result.non2xx,
    bytes: Math.round(result.throughput.average / Math.max(1, result.requests.average)),
  };
}

const rows = [];
for (const path of [`/api/cars/${car.id}`, `/car/${car.id}`, '/', '/testimonials']) {
  const row = await measure(path);
  rows.push(row);
  console.log(`${path}: p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.rps} req/s, ${row.non2xx} not 2xx`);
}

const pid = server.process.pid!;
const samples: number[] = [rssMiB(pid)];
const sampler = setInterval(() => samples.push(rssMiB(pid)), 1_000);
const steady = await autocannon({ url: `${server.url}/car/${car.id}`, connections: 50, overallRate: RATE, duration: RATE_SECONDS });
clearInterval(sampler);
samples.push(rssMiB(pid));
const third = Math.max(1, Math.floor(samples.length / 3));
const average = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;

console.log(`\n${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${CONNECTIONS} connections, ${DURATION} s per page, car ${car.id} (fixed price), NODE_ENV=production, embedded database.\n`);
console.log('| Request | p50 | p99 | Requests/s | Bytes | Not 2xx |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| \`GET ${r.path}\` | ${r.p50} ms | ${r.p99} ms | ${r.rps} | ${r.bytes} | ${r.non2xx} |`);
console.log(
  `\nCar page at ${RATE}/s for ${RATE_SECONDS} s: ${Math.round(steady.requests.total)} requests (${steady.non2xx} not 2xx), p99 ${steady.latency.p99} ms; ` +
    `RSS ${samples[0]!.toFixed(0)} MiB before, ${average(samples.slice(1, 1 + third)).toFixed(0)} MiB over the first third, ` +
    `${average(samples.slice(-third)).toFixed(0)} MiB over the last third, ${Math.max(...samples).toFixed(0)} MiB at most.`,
);
await server.kill();
