/**
 * `npm run bench`: HTTP benchmarks of the catalogue against a server on PostgreSQL with a large
 * generated catalogue, next to a bare route in the same run as the baseline.
 *
 *   npm run bench -- [--cars 100000] [--duration 10] [--connections 50] [--no-cache] [--json]
 *   npm run bench -- --url http://127.0.0.1:3000      (benchmark a server that is already running)
 *
 * Without --url it creates (or reuses) the database in BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/luxemotors_bench), fills it to --cars cars, and starts the
 * server as a separate process on a free port, so the load generator and the server do not
 * share an event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { count, sql } from 'drizzle-orm';
import { openDatabase } from '../../db/client.ts';
import { cars } from '../../db/schema/index.ts';
import { reseed, seedGeneratedCars } from '../../db/seed/seed.ts';
import { freePort } from '../helpers/app.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    cars: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'no-cache': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(`Usage: npm run bench -- [options]

  --url URL          benchmark this running server instead of starting one
  --cars N           generated cars in the benchmark database (default 100000)
  --duration S       seconds per scenario (default 10)
  --connections N    concurrent connections (default 50)
  --no-cache         start the server with LISTING_CACHE_SECONDS=0 (every request hits the database)
  --json             print the results as JSON as well

Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/luxemotors_bench)`);
  process.exit(0);
}

const duration = Number(values.duration);
const connections = Number(values.connections);
const carTarget = Number(values.cars);

interface Result {
  scenario: string;
  path: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  ratioToBaseline: number;
}

async function prepareBenchDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = postgres({ host: target.hostname, port: Number(target.port || 5432), user: decodeURIComponent(target.username || 'postgres'), password: decodeURIComponent(target.password), database: 'postgres', max: 1, onnotice: () => {} });
  const exists = await admin`select 1 from pg_database where datname = ${name}`;
  if (exists.length === 0) await admin.unsafe(`create database "${name}"`);
  await admin.end();

  const database = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 4 });
  try {
    await database.migrate();
    const [row] = await database.db.select({ n: count() }).from(cars);
    const have = row?.n ?? 0;
    if (have < carTarget) {
      console.log(`Filling ${name} with ${carTarget.toLocaleString('en-US')} generated cars (one-off)...`);
      await reseed(database.db);
      await seedGeneratedCars(database.db, carTarget);
    }
    // Fresh visibility map and statistics: deep pages are answered from the index alone.
    await database.db.execute(sql`vacuum analyze cars`);
  } finally {
    await database.close();
  }
}

async function startServer(databaseUrl: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      SERVE_CLIENT: 'false',
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      ...(values['no-cache'] ? { LISTING_CACHE_SECONDS: '0' } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if ((await fetch(`${url}/api/health`).catch(() => null))?.ok) return { url, process: child };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill();
  throw new Error('the server did not start within 60 s');
}

/**
 * One path, or several taken in turn request by request: a scenario of varied filter values is
 * answered mostly by the database, where one fixed query is soon answered by the listing cache.
 */
function run(base: string, paths: string[]): Promise<autocannon.Result> {
  let next = 0;
  const options: autocannon.Options = { url: `${base}${paths[0]}`, connections, duration, pipelining: 1 };
  if (paths.length > 1) options.requests = [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }];
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Contract v3's listing filters (make, model, body style, year and price ranges), as buyers combine them. */
const MAKES = ['Porsche', 'Ferrari', 'Lamborghini', 'McLaren', 'Aston Martin', 'Bentley', 'Rolls-Royce', 'Mercedes-AMG', 'BMW', 'Audi', 'Maserati', 'Lexus'];
const BODY_STYLES = ['sports', 'coupe', 'suv', 'sedan', 'convertible'];
const v3FilterScenarios: [string, string | string[]][] = [
  ['v3 make=Ferrari (a common make)', '/api/cars?make=Ferrari'],
  ['v3 make+model', '/api/cars?make=Porsche&model=911%20GT3'],
  ['v3 bodyStyle+minYear+maxYear', '/api/cars?bodyStyle=coupe&minYear=2019&maxYear=2022'],
  ['v3 minPrice+maxPrice', '/api/cars?minPrice=150000&maxPrice=250000'],
  ['v3 all seven combined', '/api/cars?make=Porsche&model=911%20Carrera%20S&bodyStyle=sports&minYear=2016&maxYear=2024&minPrice=100000&maxPrice=200000'],
  ['v3 make, varied (12 makes)', MAKES.map((make) => `/api/cars?make=${encodeURIComponent(make)}`)],
  [
    'v3 mixed, varied (240 combinations)',
    MAKES.flatMap((make, m) =>
      BODY_STYLES.flatMap((body, b) =>
        [0, 1, 2, 3].map((k) => `/api/cars?make=${encodeURIComponent(make)}&bodyStyle=${body}&minYear=${2014 + ((m + b + k) % 8)}&maxPrice=${150_000 + k * 50_000}`),
      ),
    ),
  ],
];

async function main(): Promise<void> {
  let server: { url: string; process: ChildProcess } | null = null;
  let base = values.url?.replace(/\/$/, '');
  if (!base) {
    const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/luxemotors_bench';
    await prepareBenchDatabase(databaseUrl);
    server = await startServer(databaseUrl);
    base = server.url;
  }
  try {
    const first = (await (await fetch(`${base}/api/cars?limit=1`)).json()) as { data: { cars: { id: number }[]; pagination: { total: number } } };
    const total = first.data.pagination.total;
    const deepPage = Math.max(1, Math.floor(total / 12 / 2));
    const scenarios: [string, string | string[]][] = [
      ['baseline (static JSON route)', '/api/health/live'],
      ['listing page 1', '/api/cars'],
      [`deep page (${deepPage})`, `/api/cars?page=${deepPage}`],
      ['sort price-high', '/api/cars?sort=price-high'],
      ['sort year-new', '/api/cars?sort=year-new'],
      ['sort year-old', '/api/cars?sort=year-old'],
      ['sort popular', '/api/cars?sort=popular'],
      ['filter luxury', '/api/cars?filter=luxury'],
      ['filter sports', '/api/cars?filter=sports'],
      ['filter below-market', '/api/cars?filter=below-market'],
      ['search "porsche"', '/api/cars?search=porsche'],
      ['search typo "lamborgini 2022"', '/api/cars?search=lamborgini%202022'],
      ['car detail', `/api/cars/${first.data.cars[0]!.id}`],
      ...v3FilterScenarios,
    ];
    console.log(`Benchmarking ${base}: ${total.toLocaleString('en-US')} cars, ${connections} connections, ${duration} s per scenario\n`);
    const results: Result[] = [];
    let baseline = 0;
    for (const [scenario, paths] of scenarios) {
      const path = typeof paths === 'string' ? paths : `${paths[0]} (and ${paths.length - 1} more in turn)`;
      const result = await run(base, typeof paths === 'string' ? [paths] : paths);
      const rps = result.requests.average;
      if (results.length === 0) baseline = rps;
      results.push({
        scenario,
        path,
        requestsPerSecond: Math.round(rps),
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.non2xx,
        ratioToBaseline: Math.round((rps / baseline) * 100) / 100,
      });
      const r = results.at(-1)!;
      console.log(`${scenario.padEnd(34)} ${String(r.requestsPerSecond).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   ${r.ratioToBaseline.toFixed(2)}x baseline${r.errors ? `   ${r.errors} errors` : ''}`);
    }
    const failing = results.slice(1).filter((r) => r.p99 > 50 || r.ratioToBaseline < 0.15);
    console.log(`\nTargets (p99 <= 50 ms and >= 0.15x baseline): ${failing.length === 0 ? 'all met' : `missed by ${failing.map((r) => r.scenario).join(', ')}`}`);
    if (values.json) console.log(JSON.stringify({ base, total, connections, duration, results }, null, 2));
  } finally {
    server?.process.kill('SIGTERM');
  }
}

await main();
