/**
 * `npm run bench:documents`: what a listing document costs the server.
 *
 *   npm run bench:documents -- [--runs 10] [--megabytes 10]
 *
 * 1. Checks a scanned service history of about 10 MB (pages each with a JPEG scan) in process,
 *    --runs times: the PDF parse and active-content scan alone (checkPdf, @cantoo/pdf-lib).
 * 2. Starts a server process of its own on the embedded database and uploads the same file
 *    --runs times, one at a time: time to 201 (transfer, multipart, parse, storage, row), and
 *    the server's worst event-loop delay over the uploads (from its /metrics).
 * 3. Fills one car's dossier to the limits (50 items in each list, 500 characters each, 50
 *    service records) and weighs its car answer, against the same car with a typical dossier.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { benchArgs, chooseBenchDatabase, percentile } from '../helpers/bench.ts';
import { insertListing } from '../helpers/escrow.ts';
import { SAMPLE_DOSSIER } from '../helpers/dossier.ts';
import { scannedHistoryPdf } from '../helpers/pdfs.ts';
import { syntheticPhoto } from '../helpers/photos.ts';
import { insertAccounts, serverDatabase, signIn } from '../helpers/server-database.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { checkPdf } from '../../server/src/services/dossier/document-checks.ts';

const values = benchArgs('Usage: npm run bench:documents -- [--runs 10] [--megabytes 10]', {
  runs: { type: 'string', default: '10' },
  megabytes: { type: 'string', default: '10' },
});
const RUNS = Number(values.runs);
const TARGET_BYTES = Number(values.megabytes) * 1024 * 1024;

const scan = await syntheticPhoto({ width: 1700, height: 2200, color: 'f4f1ea', seed: 7 });
const pdf = await scannedHistoryPdf(TARGET_BYTES, scan);
const pageCount = Math.round(TARGET_BYTES / scan.length);
console.log(`\nDocument: ${pdf.length.toLocaleString('en-US')} bytes, ${pageCount} pages, each a ${scan.length.toLocaleString('en-US')}-byte JPEG scan`);

const parse: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  await checkPdf(pdf);
  parse.push(performance.now() - started);
}
console.log(`\n1. Parse and check in process (${RUNS} runs): p50 ${percentile(parse, 50).toFixed(0)} ms, max ${Math.max(...parse).toFixed(0)} ms`);

chooseBenchDatabase(false);
const dataDir = mkdtempSync(join(tmpdir(), 'lm-document-bench-'));
const database = await serverDatabase(dataDir, async (db) => {
  const [seller] = await insertAccounts(db, ['Bench Documents']);
  const cars: number[] = [];
  for (let i = 0; i < 3; i++) cars.push((await insertListing(db, seller!, { make: 'Porsche', model: `Document ${i}` })).id);
  return { seller: seller!, cars };
});
const { seller, cars } = database.prepared;
const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'error' });
process.on('exit', () => server.process.kill('SIGKILL'));
const token = await signIn(server.url, seller);
const auth = { authorization: `Bearer ${token}` };
const peakRssMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))![1]) / 1024;
async function eventLoopMaxMs(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? NaN) * 1000;
}

const uploads: number[] = [];
await eventLoopMaxMs();
for (let i = 0; i < RUNS; i++) {
  const form = new FormData();
  form.append('kind', 'service');
  form.append('title', `Service history ${i}`);
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'history.pdf');
  const started = performance.now();
  const res = await fetch(`${server.url}/api/cars/${cars[0]}/documents`, { method: 'POST', headers: auth, body: form });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
  uploads.push(performance.now() - started);
}
console.log(`\n2. Upload to 201 (${RUNS} uploads, one at a time): p50 ${percentile(uploads, 50).toFixed(0)} ms, max ${Math.max(...uploads).toFixed(0)} ms; worst event-loop delay ${(await eventLoopMaxMs()).toFixed(0)} ms; server peak RSS ${peakRssMb().toFixed(0)} MB`);

const put = (carId: number, body: object) => fetch(`${server.url}/api/cars/${carId}/dossier`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const long = (what: string, i: number) => `${what} ${i}: ${'a detailed description of the item as a careful seller writes it, '.repeat(8)}`.slice(0, 500);
const full = {
  vin: 'WP0AC2A94NS270123',
  knownFlaws: Array.from({ length: 50 }, (_, i) => ({ text: long('Flaw', i) })),
  modifications: Array.from({ length: 50 }, (_, i) => ({ text: long('Modification', i) })),
  itemsIncluded: Array.from({ length: 50 }, (_, i) => ({ text: long('Included', i) })),
  serviceRecords: Array.from({ length: 50 }, (_, i) => ({ date: '2024-05-10', mileage: 1_000 + i * 100, shop: 'Porsche Austin', work: long('Service', i), cost: 500 + i })),
};
for (const [carId, body] of [[cars[1]!, SAMPLE_DOSSIER], [cars[2]!, full]] as const) {
  const res = await put(carId, body);
  if (res.status !== 200) throw new Error(`dossier answered ${res.status}: ${await res.text()}`);
}
const weigh = async (carId: number) => {
  const json = await (await fetch(`${server.url}/api/cars/${carId}`)).text();
  return { json: Buffer.byteLength(json), gzip: gzipSync(json).length };
};
const [none, typical, limits] = await Promise.all([weigh(cars[0]!), weigh(cars[1]!), weigh(cars[2]!)]);
console.log(
  `\n3. Car answer (GET /api/cars/:id): with ${RUNS} documents only ${none.json.toLocaleString('en-US')} bytes; typical dossier ${typical.json.toLocaleString('en-US')} bytes; every list full (200 items of 500 characters) ${limits.json.toLocaleString('en-US')} bytes (${limits.gzip.toLocaleString('en-US')} gzipped)`,
);
await server.kill();
process.exit(0);
