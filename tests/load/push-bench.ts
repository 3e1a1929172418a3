/**
 * `npm run bench:push`: how soon a bid reaches its seller outside the open tab: from the bid's
 * 201 to the push at a local Web Push receiver, and to the email at a local SMTP server.
 *
 *   npm run bench:push -- [--bids 100] [--max-seconds 300] [--poll 1] [--postgres]
 *
 * Starts a server process of its own (a fresh embedded database in a temporary folder, or with
 * --postgres a fresh database on BENCH_DATABASE_URL's server) with a seller, two bidders and the
 * seller's car written before it starts. The seller's device subscribes at web-push-testing
 * (which checks the VAPID signature and decrypts each push) behind a recording proxy; mail goes to
 * the tests' SMTP server. The bidders then outbid each other on the car, one bid at a time (a quiet
 * server: latency, not throughput). The coalescing window is its shortest (1 s), and each bid
 * waits until the window of the last push has passed, so every bid is a "first" that goes at
 * once. The run stops after --bids bids or --max-seconds, whichever comes first.
 */
import { mkdtempSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { minimumBid } from '@common/bid-rules.ts';
import { formatUsd } from '@common/pricing.ts';
import { benchArgs, chooseBenchDatabase, LATENCY_TABLE_HEAD, latencyRow, endWithBench } from '../helpers/bench.ts';
import { insertListing } from '../helpers/escrow.ts';
import { PushReceiver } from '../helpers/push-receiver.ts';
import { http, insertAccounts, serverDatabase, signIn } from '../helpers/server-database.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { TestMailbox } from '../helpers/smtp.ts';
import { sleep, waitUntil } from '../helpers/sockets.ts';

const values = benchArgs('Usage: npm run bench:push -- [--bids 100] [--max-seconds 300] [--poll 1] [--postgres]', {
  bids: { type: 'string', default: '100' },
  'max-seconds': { type: 'string', default: '300' },
  poll: { type: 'string', default: '1' },
  postgres: { type: 'boolean', default: false },
});
const BIDS = Number(values.bids);
const MAX_MS = Number(values['max-seconds']) * 1000;
const PRICE = 150_000;
/** NOTIFY_COALESCE_SECONDS: the shortest window there is. */
const WINDOW_MS = 1_000;

chooseBenchDatabase(values.postgres);
const loadBefore = loadavg();
const dataDir = mkdtempSync(join(tmpdir(), 'lm-push-bench-'));
const database = await serverDatabase(dataDir, async (db) => {
  const [seller, ...bidders] = await insertAccounts(db, ['Bench Seller', 'Bench Bidder A', 'Bench Bidder B']);
  const car = await insertListing(db, seller!, { make: 'Ferrari', model: 'SF90 Stradale', price: PRICE });
  return { seller: seller!, bidders, car };
});
const { seller, bidders, car } = database.prepared;

const mailbox = new TestMailbox();
const receiver = await new PushReceiver().start();
const server = await startServerProcess({
  DATA_DIR: dataDir,
  DATABASE_URL: database.url,
  SMTP_URL: await mailbox.start(),
  PUSH_ENDPOINT_HOSTS_ALLOWED: receiver.host,
  NOTIFY_COALESCE_SECONDS: String(WINDOW_MS / 1000),
  JOB_POLL_SECONDS: values.poll!,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
});
endWithBench(server);

const sellerToken = await signIn(server.url, seller);
const tokens = await Promise.all(bidders.map((b) => signIn(server.url, b)));
const { body: key } = await http<{ publicKey: string }>(server.url, null, 'GET', '/api/push/public-key');
const phone = await receiver.device(key.data.publicKey);
const subscribed = await http(server.url, sellerToken, 'POST', '/api/push/subscriptions', phone.subscription);
if (subscribed.status !== 201) throw new Error(`subscription answered ${subscribed.status}`);

const requestMs: number[] = [];
const pushMs: number[] = [];
const mailMs: number[] = [];
const startedAt = Date.now();
let highest: number | null = null;
let lastPushAt = 0;
for (let i = 0; i < BIDS && Date.now() - startedAt < MAX_MS; i++) {
  const amount = minimumBid(PRICE, highest);
  const words = `bid ${formatUsd(amount)} on your`;
  // Waiting for the email starts before the bid, so its arrival time is when it arrived.
  let mailAt = 0;
  const mailed = mailbox.waitFor((m) => m.to.includes(seller.email) && m.body.includes(words), 30_000).then(() => (mailAt = Date.now()));
  // Outside the coalescing window of the last push (its batch was sent before it arrived).
  await sleep(Math.max(0, lastPushAt + WINDOW_MS + 100 - Date.now()));
  const sentAt = performance.now();
  const res = await http(server.url, tokens[i % 2]!, 'POST', '/api/bids', { carId: car.id, amount });
  const answeredAt = Date.now();
  requestMs.push(performance.now() - sentAt);
  if (res.status !== 201) throw new Error(`bid ${i} answered ${res.status} ${JSON.stringify(res.body)}`);
  highest = amount;
  await waitUntil(() => receiver.accepted(phone.hash).length > i, 30_000, `the push of bid ${i}`);
  lastPushAt = receiver.accepted(phone.hash)[i]!.at;
  pushMs.push(lastPushAt - answeredAt);
  await mailed;
  mailMs.push(mailAt - answeredAt);
}

// Each push arrived once, decrypted, and said which bid it was.
const messages = await receiver.messages(phone.hash);
if (messages.length !== pushMs.length) throw new Error(`${messages.length} pushes for ${pushMs.length} bids`);
for (const [i, message] of messages.entries()) {
  if (message.title !== 'New bid on your car' || !String(message.body).includes(formatUsd(minimumBidAt(i)))) throw new Error(`push ${i} says ${JSON.stringify(message)}`);
}
function minimumBidAt(i: number): number {
  let amount: number | null = null;
  for (let k = 0; k <= i; k++) amount = minimumBid(PRICE, amount);
  return amount!;
}
const loadAfter = loadavg();

console.log(`\nA bid → the seller's push and email (${pushMs.length} bids on one car in ${((Date.now() - startedAt) / 1000).toFixed(0)} s, ${values.postgres ? 'PostgreSQL' : 'embedded PGlite'}, NOTIFY_COALESCE_SECONDS=1, JOB_POLL_SECONDS=${values.poll})`);
console.log(`Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${process.version}; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after\n`);
console.log(LATENCY_TABLE_HEAD);
console.log(latencyRow('POST /api/bids (request → 201)', requestMs));
console.log(latencyRow('201 → push at the receiver', pushMs));
console.log(latencyRow('201 → email at the SMTP server', mailMs));
console.log(`\nOutbid emails to the bidders: ${mailbox.messages.filter((m) => m.subject === "You've been outbid").length} (one per bid after the first).`);

await server.kill();
await receiver.stop();
await mailbox.stop();
await database.drop();
process.exit(0);
