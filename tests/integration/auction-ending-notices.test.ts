import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { minimumBid } from '@common/bid-rules.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import { requestsTo } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * `auction_ending`: bidders and watchers are told at each milestone before an auction's end
 * (AUCTION_ENDING_NOTICES; short ones here, so the auctions can be short), each once, however
 * often the milestone's job runs, and not again when a late bid extends the auction.
 */
const EXTENSION_SECONDS = 3;

let t: TestApp;
let defaults: TestApp;
beforeAll(async () => {
  [t, defaults] = await Promise.all([
    startTestApp({ AUCTION_MIN_SECONDS: '2', AUCTION_EXTENSION_SECONDS: String(EXTENSION_SECONDS), AUCTION_ENDING_NOTICES: '8,4', JOB_POLL_SECONDS: '0.5' }),
    startTestApp({ AUCTION_MIN_SECONDS: '2' }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), defaults?.close()]);
});

const call = requestsTo(() => t);
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const bid = async (user: SignedInUser, carId: number, amount: number) => expect((await call('POST', '/api/bids', user, { carId, amount })).statusCode).toBe(201);
const detail = async (carId: number): Promise<CarDetail> => (await call('GET', `/api/cars/${carId}`)).json().data;

/** The user's `auction_ending` notifications' titles, oldest first. */
async function endingTitles(user: SignedInUser): Promise<string[]> {
  const list = (await call('GET', '/api/notifications', user)).json().data.notifications as { event: string; title: string }[];
  return list.filter((n) => n.event === 'auction_ending').map((n) => n.title).reverse();
}

let made = 0;
const auction = (app: TestApp, seller: SignedInUser, endsAt: string) =>
  listCar(app, seller, { model: `Carrera GT Ending ${++made}`, year: 2005, price: 900_000, auction: { endsAt } });

describe('auction_ending milestones', () => {
  it('tells bidders and watchers at each milestone, once each however often it runs, and never the seller', async () => {
    const seller = await createUser(t);
    const [bidder, watcher] = [await createUser(t), await createUser(t)];
    const car = await auction(t, seller, inSeconds(11));
    await bid(bidder, car.id, car.price);
    expect((await call('POST', '/api/watchlist', watcher, { carId: car.id })).statusCode).toBeLessThan(300);

    // A milestone's job run before its time (as when the end moved later) tells nobody yet.
    await t.app.services.auctions.remind(car.id, 4);
    expect(await endingTitles(bidder)).toEqual([]);

    for (const user of [bidder, watcher]) await waitUntil(async () => (await endingTitles(user)).length === 2, 15_000, 'both milestones');
    // Run again, as a second process or a restart might: nobody hears it twice.
    await t.app.services.auctions.remind(car.id, 8);
    await t.app.services.auctions.remind(car.id, 4);
    for (const user of [bidder, watcher]) expect(await endingTitles(user)).toEqual(['Auction ending in 8 seconds', 'Auction ending in 4 seconds']);
    expect(await endingTitles(seller)).toEqual([]);
    const [told] = (await call('GET', '/api/notifications', watcher)).json().data.notifications as { message: string; carId: number }[];
    expect(told).toMatchObject({ carId: car.id, message: expect.stringContaining(`The auction for the 2005 ${car.make} ${car.model} ends at`) });
  }, 30_000);

  it('does not repeat a milestone already told when a late bid extends the auction', async () => {
    const seller = await createUser(t);
    const [early, late] = [await createUser(t), await createUser(t)];
    // Seven seconds: the 8-second milestone has passed already and is never sent; the 4-second one is.
    const car = await auction(t, seller, inSeconds(7));
    await bid(early, car.id, car.price);
    expect((await call('POST', '/api/watchlist', late, { carId: car.id })).statusCode).toBeLessThan(300);
    for (const user of [early, late]) await waitUntil(async () => (await endingTitles(user)).length === 1, 10_000, 'the 4-second milestone');

    // Inside the soft-close window, the watcher bids: the end moves to 3 s after the bid.
    const endsAt = Date.parse((await detail(car.id)).auction!.endsAt);
    await waitUntil(async () => endsAt - Date.now() < (EXTENSION_SECONDS - 1) * 1000, 10_000, 'the soft-close window');
    const now = await detail(car.id);
    await bid(late, car.id, minimumBid(now.price, now.highestBid, { auction: true }));
    expect((await detail(car.id)).auction!.extensions).toBe(1);
    // The milestone's job again, as a rescheduled copy would run it against the new end.
    await t.app.services.auctions.remind(car.id, 4);

    await waitUntil(async () => (await detail(car.id)).auction!.ended, 15_000, 'the auction to end');
    for (const user of [early, late]) expect(await endingTitles(user)).toEqual(['Auction ending in 4 seconds']);
  }, 30_000);

  it('by default, schedules the hour and the ten-minute notices of a new auction', async () => {
    const seller = await createUser(defaults);
    const endsAt = inSeconds(2 * 3600);
    const car = await auction(defaults, seller, endsAt);
    const jobs = rowsOf(
      await defaults.database.db.execute(
        sql`select data->>'secondsBefore' as "secondsBefore", start_after as "startAfter" from pgboss.job where name = 'auction.reminder' and (data->>'carId')::int = ${car.id} order by start_after`,
      ),
    ).map((row) => ({ secondsBefore: Number(row.secondsBefore), startAfter: new Date(row.startAfter as string).getTime() }));
    expect(jobs).toEqual([
      { secondsBefore: 3600, startAfter: Date.parse(endsAt) - 3600_000 },
      { secondsBefore: 600, startAfter: Date.parse(endsAt) - 600_000 },
    ]);
  });
});
