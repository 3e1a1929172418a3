/**
 * `npm run bench:market`: saved-search matching time, and the listing with the v3 filters.
 *
 *   npm run bench:market -- [--searches 10000] [--publications 20]              (embedded database)
 *   npm run bench:market -- --postgres [--cars 100000] [--duration 5] [--connections 20]
 *                           [--skip-matching] [--skip-listing]
 *
 * Matching: `--searches` saved searches (most name other makes or models, a few match), then
 * `--publications` cars inserted and matched one after another through
 * `SavedSearchesService.match` (the job's body: one statement, then the alerts' notifications
 * and outbox mails in the same transaction); p50/p99 and the searches matched per car.
 * With --postgres (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) the same on
 * a scratch PostgreSQL database, then the listing: a database of its own
 * (BENCH_MARKET_DATABASE_URL, default .../luxemotors_market_bench) filled to --cars generated
 * cars, a server process with the listing cache off (LISTING_CACHE_SECONDS=0, every request
 * reaches the database), and GET /api/cars per filter shape at a fixed concurrency.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { count, sql } from 'drizzle-orm';
import { openDatabase } from '../../db/client.ts';
import { carSearchText } from '../../db/search-text.ts';
import { cars, savedSearches, sellers, users } from '../../db/schema/index.ts';
import { reseed, seedGeneratedCars } from '../../db/seed/seed.ts';

const { values } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    searches: { type: 'string', default: '10000' },
    publications: { type: 'string', default: '20' },
    cars: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    'skip-listing': { type: 'boolean', default: false },
    'skip-matching': { type: 'boolean', default: false },
  },
});
const SEARCHES = Number(values.searches);
const PUBLICATIONS = Number(values.publications);
if (values.postgres) process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/postgres';
else delete process.env.DATABASE_URL;
process.env.REDIS_URL = '';

// Imported after DATABASE_URL is settled: the test database follows it.
const { startTestApp, freePort } = await import('../helpers/app.ts');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const OTHER_MAKES = ['Ferrari', 'Lamborghini', 'McLaren', 'Aston Martin', 'Bentley', 'Rolls-Royce', 'Mercedes-AMG', 'BMW', 'Audi', 'Maserati', 'Lotus', 'Bugatti', 'Jaguar', 'Lexus', 'Ford'];

async function benchMatching(): Promise<void> {
  const t = await startTestApp({ JOB_POLL_SECONDS: '5' });
  const db = t.database.db;
  try {
    const owners = await db
      .insert(users)
      .values(Array.from({ length: Math.ceil(SEARCHES / 20) }, (_, i) => ({ email: `market-bench-${i}-${Date.now()}@example.com`, name: `Bench Owner ${i}`, passwordHash: 'x', emailVerified: true })))
      .returning({ id: users.id });
    // The mix: 90% other makes; 5% Porsche other models; 3% Porsche any model (half with a price
    // cap or year range that may exclude the car); 2% Porsche 911 exactly. 70% instant, 25% daily, 5% off.
    const rows = Array.from({ length: SEARCHES }, (_, i) => {
      const r = i % 100;
      const alerts = i % 20 === 0 ? 'off' : i % 4 === 0 ? 'daily' : 'instant';
      const base = { userId: owners[i % owners.length]!.id, name: `Search ${i}`, alerts } as const;
      if (r < 90) {
        const make = OTHER_MAKES[i % OTHER_MAKES.length]!;
        return { ...base, query: { make }, make: make.toLowerCase(), ...(i % 3 === 0 ? { maxPrice: 300_000 } : {}) };
      }
      if (r < 95) return { ...base, query: { make: 'Porsche', model: `Cayenne ${i}` }, make: 'porsche', model: `cayenne ${i}` };
      if (r < 98) return { ...base, query: { make: 'Porsche' }, make: 'porsche', ...(i % 2 === 0 ? { maxPrice: 150_000 + (i % 7) * 20_000, minYear: 2015 + (i % 8) } : {}) };
      return { ...base, query: { make: 'Porsche', model: '911 Carrera' }, make: 'porsche', model: '911 carrera' };
    });
    for (let i = 0; i < rows.length; i += 2_000) await db.insert(savedSearches).values(rows.slice(i, i + 2_000));
    const [seller] = await db.insert(sellers).values({ name: 'Bench Seller', rating: 4.5, verified: true }).returning({ id: sellers.id });
    const [{ n: carCount } = { n: 0 }] = await db.select({ n: count() }).from(cars);
    const service = t.app.services.savedSearches;
    const timings: number[] = [];
    const selectTimings: number[] = [];
    const matchedCounts: number[] = [];
    for (let i = 0; i < PUBLICATIONS + 3; i++) {
      const price = 120_000 + (i % 10) * 10_000;
      const year = 2016 + (i % 9);
      const [car] = await db
        .insert(cars)
        .values({
          sellerId: seller!.id,
          make: 'Porsche',
          model: '911 Carrera',
          year,
          price,
          marketValue: price,
          marketValueBasis: 'reference',
          mileage: 9_000,
          condition: 'Excellent',
          bodyStyle: 'coupe',
          color: '#1f2937',
          location: 'Austin, TX',
          description: 'A benchmark listing.',
          searchText: carSearchText({ make: 'Porsche', model: '911 Carrera' }),
        })
        .returning({ id: cars.id });
      // The matching predicate alone (read-only, as in matchingSearches), then the whole job body.
      const selectStart = performance.now();
      await db.execute(sql`select count(*) from saved_searches s where s.alerts <> 'off' and s.user_id is distinct from null
        and (s.make is null or s.make = 'porsche') and (s.model is null or s.model = '911 carrera') and (s.body_style is null or s.body_style = 'coupe')
        and (s.min_year is null or s.min_year <= ${year}) and (s.max_year is null or s.max_year >= ${year})
        and (s.min_price is null or s.min_price <= ${price}) and (s.max_price is null or s.max_price >= ${price})
        and (not s.auctions_only) and ${year} = all(s.search_years)
        and not exists (select 1 from unnest(s.search_words) w where not (strpos('porsche 911 carrera', w) > 0))`);
      const selectMs = performance.now() - selectStart;
      const start = performance.now();
      const told = await service.match(car!.id, 'listed');
      const ms = performance.now() - start;
      if (i < 3) continue; // warm-up
      timings.push(ms);
      selectTimings.push(selectMs);
      matchedCounts.push(told);
    }
    const [{ n: recorded } = { n: 0 }] = await db.select({ n: count() }).from(sql`saved_search_matches`);
    timings.sort((a, b) => a - b);
    selectTimings.sort((a, b) => a - b);
    const database = values.postgres ? 'PostgreSQL' : 'embedded (PGlite)';
    console.log(
      `matching, ${database}: ${SEARCHES.toLocaleString('en-US')} saved searches, ${carCount} other cars, ${PUBLICATIONS} publications: ` +
        `p50 ${percentile(timings, 50).toFixed(1)} ms, p99 ${percentile(timings, 99).toFixed(1)} ms, max ${timings.at(-1)!.toFixed(1)} ms; ` +
        `matching predicate alone p50 ${percentile(selectTimings, 50).toFixed(1)} ms, p99 ${percentile(selectTimings, 99).toFixed(1)} ms; ` +
        `instant alerts per publication ${Math.min(...matchedCounts)}-${Math.max(...matchedCounts)}, ${recorded} matches recorded (instant + daily, incl. warm-up)`,
    );
    // The statement's plan, for the reading.
    if (values.postgres) {
      const plan = await db.execute(sql`explain analyze select count(*) from saved_searches s where s.alerts <> 'off' and (s.make is null or s.make = 'porsche') and (s.model is null or s.model = '911 carrera')`);
      const lines = (Array.isArray(plan) ? plan : (plan as unknown as { rows: unknown[] }).rows) as Record<string, string>[];
      console.log(lines.map((l) => `  ${Object.values(l)[0]}`).join('\n'));
    }
  } finally {
    await t.close();
  }
}

async function prepareListingDatabase(url: string, target: number): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  const admin = postgres({ host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username || 'postgres'), password: decodeURIComponent(u.password), database: 'postgres', max: 1, onnotice: () => {} });
  if ((await admin`select 1 from pg_database where datname = ${name}`).length === 0) await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 4 });
  try {
    await database.migrate();
    const [row] = await database.db.select({ n: count() }).from(cars);
    if ((row?.n ?? 0) < target) {
      console.log(`Filling ${name} with ${target.toLocaleString('en-US')} generated cars (one-off)...`);
      await reseed(database.db);
      await seedGeneratedCars(database.db, target);
    }
    await database.db.execute(sql`vacuum analyze cars`);
  } finally {
    await database.close();
  }
}

async function benchListing(): Promise<void> {
  const databaseUrl = process.env.BENCH_MARKET_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/luxemotors_market_bench';
  await prepareListingDatabase(databaseUrl, Number(values.cars));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', APP_URL: base, SERVE_CLIENT: 'false', LOG_LEVEL: 'warn', REDIS_URL: '', LISTING_CACHE_SECONDS: '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    const deadline = Date.now() + 60_000;
    while (!(await fetch(`${base}/api/health`).catch(() => null))?.ok) {
      if (Date.now() > deadline) throw new Error('the server did not start within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const sample = (await (await fetch(`${base}/api/cars?limit=1`)).json()) as { data: { cars: { make: string; model: string }[]; pagination: { total: number } } };
    const { make, model } = sample.data.cars[0]!;
    const q = (o: Record<string, string | number>) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();
    const year = new Date().getUTCFullYear();
    const shapes: [string, string][] = [
      ['unfiltered', '/api/cars'],
      [`make=${make}`, `/api/cars?${q({ make })}`],
      [`make+model (${model})`, `/api/cars?${q({ make, model })}`],
      ['bodyStyle=coupe+years', `/api/cars?${q({ bodyStyle: 'coupe', minYear: year - 4, maxYear: year - 1 })}`],
      ['price 150k-250k', `/api/cars?${q({ minPrice: 150_000, maxPrice: 250_000 })}`],
      ['all combined', `/api/cars?${q({ make, model, bodyStyle: 'coupe', minYear: year - 6, maxYear: year, minPrice: 50_000, maxPrice: 500_000 })}`],
    ];
    console.log(`\nlisting, PostgreSQL, ${sample.data.pagination.total.toLocaleString('en-US')} cars, cache off, ${values.connections} connections, ${values.duration} s per shape`);
    for (const [name, path] of shapes) {
      const total = ((await (await fetch(`${base}${path}&limit=1`.replace('/api/cars&', '/api/cars?'))).json()) as { data: { pagination: { total: number } } }).data.pagination.total;
      const result = await new Promise<autocannon.Result>((resolve, reject) =>
        autocannon({ url: `${base}${path}`, connections: Number(values.connections), duration: Number(values.duration) }, (e, r) => (e ? reject(e) : resolve(r))),
      );
      console.log(`${name.padEnd(40)} ${String(Math.round(result.requests.average)).padStart(6)} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  ${String(total).padStart(6)} hits${result.errors + result.non2xx ? `  ${result.errors + result.non2xx} errors` : ''}`);
    }
  } finally {
    child.kill('SIGTERM');
  }
}

console.log(`load before: ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);
if (!values['skip-matching']) await benchMatching();
if (values.postgres && !values['skip-listing']) await benchListing();
console.log(`load after: ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);
process.exit(0);
