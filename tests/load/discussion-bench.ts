/**
 * `npm run bench:discussion`: what posting to a car's discussion costs over HTTP, with the
 * contact guard (the default) and without it (CHAT_CONTACT_GUARD=false, for this measure only).
 *
 *   npm run bench:discussion -- [--posts 300] [--postgres]
 *
 * Starts a server process of its own for each setting (embedded database in a temporary folder,
 * or with --postgres a fresh database on BENCH_DATABASE_URL's server), with accounts and listings
 * written before it starts, then posts one message at a time (a quiet server: latency, not
 * throughput): car talk full of numbers, a few disguised contacts (held), and 1,000-character
 * messages, each by a user and car pair that stays inside the rate limit.
 */
import { mkdtempSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchArgs, chooseBenchDatabase, LATENCY_TABLE_HEAD, latencyRow } from '../helpers/bench.ts';
import { insertListing } from '../helpers/escrow.ts';
import { insertAccounts, serverDatabase, signIn } from '../helpers/server-database.ts';
import { startServerProcess } from '../helpers/server-process.ts';

const values = benchArgs('Usage: npm run bench:discussion -- [--posts 300] [--postgres]', {
  posts: { type: 'string', default: '300' },
  postgres: { type: 'boolean', default: false },
});
const POSTS = Number(values.posts);
const USERS = 20;
const CARS = Math.max(1, Math.ceil(POSTS / USERS / 4));

const TEXTS = [
  'Is the 2019 911 GT3 RS at 12,400 miles on its original PCCB rotors? The 40,000-mile service was $3,250.',
  'Chassis ends in 0427, engine matching; the F40 had its tank bags done in 2022 for about 8,500 USD.',
  'Could you post the 300SL gearbox photos from the 10:30 inspection on 14 May?',
  'Call me on five five five, zero one three four; I pay by wire, skip the escrow fee',
  'What tyres are on it, and what size: 245/35 ZR20 front and 305/30 ZR21 rear?',
];
const LONG = `${'The service book shows 12 stamps, the last at 48,900 miles in March 2024 by the dealer in Stuttgart; '.repeat(10)}`.slice(0, 1000);

chooseBenchDatabase(values.postgres);

async function measure(guard: boolean): Promise<{ short: number[]; long: number[]; held: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lm-discussion-bench-'));
  const database = await serverDatabase(dataDir, async (db) => {
    const accounts = await insertAccounts(db, Array.from({ length: USERS + 1 }, (_, i) => `Bench Poster ${i}`));
    const listings = [];
    for (let i = 0; i < CARS; i++) listings.push(await insertListing(db, accounts[USERS]!, { price: 80_000 + i * 100 }));
    return { posters: accounts.slice(0, USERS), listings };
  });
  const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: database.url, CHAT_CONTACT_GUARD: String(guard), LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' });
  try {
    const tokens = await Promise.all(database.prepared.posters.map((p) => signIn(server.url, p)));
    const short: number[] = [];
    const long: number[] = [];
    let held = 0;
    for (let i = 0; i < POSTS; i++) {
      // Each (user, car) pair posts at most four times: inside 5 per 30 s whatever the pace.
      const user = i % USERS;
      const car = database.prepared.listings[Math.floor(i / USERS) % CARS]!;
      const isLong = i % 10 === 9;
      const text = `${isLong ? LONG.slice(0, 990) : TEXTS[i % TEXTS.length]} #${i}`;
      const started = performance.now();
      const res = await fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[user]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ carId: car.id, message: text }),
      });
      const body = (await res.json()) as { data?: { status: string }; code?: string };
      (isLong ? long : short).push(performance.now() - started);
      if (res.status !== 201) throw new Error(`post ${i} answered ${res.status} ${body.code}`);
      if (body.data!.status === 'held') held += 1;
    }
    return { short, long, held };
  } finally {
    await server.kill();
    await database.drop();
  }
}

const withGuard = await measure(true);
const withoutGuard = await measure(false);

console.log(`\nPosting to a discussion over HTTP, one at a time (${POSTS} posts per setting, ${values.postgres ? 'PostgreSQL' : 'embedded PGlite'})`);
console.log(`Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${process.version}\n`);
console.log(LATENCY_TABLE_HEAD);
console.log(latencyRow('POST /api/chat, guard on (default)', withGuard.short));
console.log(latencyRow('POST /api/chat, guard off', withoutGuard.short));
console.log(latencyRow('1,000 characters, guard on', withGuard.long));
console.log(latencyRow('1,000 characters, guard off', withoutGuard.long));
console.log(`\nHeld by the guard: ${withGuard.held} of ${POSTS} (the disguised phone number in one text of five); without it: ${withoutGuard.held}.`);
process.exit(0);
