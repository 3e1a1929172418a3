import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { savedSearchMatches } from '../../db/schema/index.ts';
import type { SavedSearch } from '@common/schemas/discovery.ts';
import { DEFAULT_DIGEST_HOUR_UTC } from '@common/market-data.ts';
import { digestMessageId, nextDigestTime } from '../../server/src/services/market/saved-searches.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { TestMailbox, type ReceivedMail } from '../helpers/smtp.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { mailSettled } from '../helpers/wait.ts';
import { listCar } from '../helpers/cars.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * Daily digests (issue 21, contract §"Discovery and market data (v3)"): when the next digest is
 * queued, and what a second digest on the same day sends.
 */

const at = (iso: string) => new Date(iso);

describe('nextDigestTime', () => {
  it.each([
    ['2026-11-27T07:59:59.999Z', 8, '2026-11-27T08:00:00.000Z'],
    ['2026-11-27T00:00:00.000Z', 8, '2026-11-27T08:00:00.000Z'],
    // Exactly at the hour the digest is due now, not ahead: tomorrow's is next (the job that runs
    // at the hour queues the next one and must not queue itself again).
    ['2026-11-27T08:00:00.000Z', 8, '2026-11-28T08:00:00.000Z'],
    ['2026-11-27T08:00:00.001Z', 8, '2026-11-28T08:00:00.000Z'],
    ['2026-11-27T23:59:59.999Z', 8, '2026-11-28T08:00:00.000Z'],
    // Across a month's end, a year's end and a leap day.
    ['2026-11-30T12:00:00.000Z', 8, '2026-12-01T08:00:00.000Z'],
    ['2026-12-31T09:00:00.000Z', 8, '2027-01-01T08:00:00.000Z'],
    ['2028-02-28T10:00:00.000Z', 8, '2028-02-29T08:00:00.000Z'],
    // The first and last hours of the day.
    ['2026-11-27T00:00:00.000Z', 0, '2026-11-28T00:00:00.000Z'],
    ['2026-11-26T23:59:59.999Z', 0, '2026-11-27T00:00:00.000Z'],
    ['2026-11-27T22:59:59.999Z', 23, '2026-11-27T23:00:00.000Z'],
    ['2026-11-27T23:00:00.000Z', 23, '2026-11-28T23:00:00.000Z'],
  ])('from %s at hour %i: %s', (now, hour, next) => {
    expect(nextDigestTime(at(now), hour).toISOString()).toBe(next);
  });

  it('is always the first time at the hour strictly after now, within a day', () => {
    for (let i = 0; i < 2_000; i += 1) {
      const now = new Date(Date.UTC(2026, 0, 1) + Math.floor(Math.random() * 3 * 365 * 86_400_000));
      const hour = Math.floor(Math.random() * 24);
      const next = nextDigestTime(now, hour);
      expect(next.getUTCHours(), now.toISOString()).toBe(hour);
      expect(next.getUTCMinutes() + next.getUTCSeconds() + next.getUTCMilliseconds()).toBe(0);
      expect(next.getTime()).toBeGreaterThan(now.getTime());
      expect(next.getTime() - now.getTime()).toBeLessThanOrEqual(86_400_000);
    }
  });
});

describe('digestMessageId', () => {
  it('follows the cars a digest lists, not their order', () => {
    expect(digestMessageId(7, '2026-11-27', [3, 1, 2])).toBe(digestMessageId(7, '2026-11-27', [1, 2, 3]));
    expect(digestMessageId(7, '2026-11-27', [1, 2])).not.toBe(digestMessageId(7, '2026-11-27', [1, 2, 3]));
    expect(digestMessageId(7, '2026-11-27', [12])).not.toBe(digestMessageId(7, '2026-11-27', [1, 2]));
    expect(digestMessageId(7, '2026-11-27', [1])).not.toBe(digestMessageId(8, '2026-11-27', [1]));
    expect(digestMessageId(7, '2026-11-27', [1])).not.toBe(digestMessageId(7, '2026-11-28', [1]));
    expect(digestMessageId(7, '2026-11-27', [1])).toMatch(/^digest-7-2026-11-27-[0-9a-f]{16}$/);
  });
});

/** postgres.js answers with the rows, PGlite with `{ rows }`. */
const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

interface DigestJob {
  data: { day: string };
  start_after: Date | string;
  singleton_key: string | null;
  state: string;
}

async function queuedDigests(t: TestApp): Promise<DigestJob[]> {
  return rowsOf<DigestJob>(
    await t.database.db.execute(sql`select data, start_after, singleton_key, state from pgboss.job where name = 'saved-search.digest' and state = 'created' order by start_after`),
  );
}

describe('the digest job queued at start', () => {
  it(`waits for DIGEST_HOUR_UTC (default ${DEFAULT_DIGEST_HOUR_UTC}) today or tomorrow`, async () => {
    const before = Date.now();
    const t = await startTestApp();
    try {
      const after = Date.now();
      const jobs = await queuedDigests(t);
      expect(jobs).toHaveLength(1);
      const startAfter = new Date(jobs[0]!.start_after);
      // At the hour, the first such time after the app started (today's if it is still ahead).
      expect(startAfter.toISOString().slice(11)).toBe(`${String(DEFAULT_DIGEST_HOUR_UTC).padStart(2, '0')}:00:00.000Z`);
      expect(startAfter.getTime()).toBeGreaterThan(before);
      expect(startAfter.getTime()).toBeLessThanOrEqual(after + 86_400_000);
      const day = startAfter.toISOString().slice(0, 10);
      expect(jobs[0]).toMatchObject({ data: { day }, singleton_key: `digest-${day}` });
      // A second process (or a restart) queues no second job for the same digest.
      await t.app.services.savedSearches.scheduleNextDigest();
      expect(await queuedDigests(t)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('takes DIGEST_HOUR_UTC: an hour already past today is tomorrow, the next hour is today', async () => {
    /** The hour's time today, or tomorrow once it has come (as read at `now`). */
    const expectedAt = (now: number, hour: number) => {
      const d = new Date(now);
      const today = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour);
      return new Date(today > now ? today : today + 86_400_000).toISOString();
    };
    const hour = new Date().getUTCHours();
    for (const [digestHour, when] of [
      [hour, 'tomorrow'],
      [(hour + 1) % 24, hour === 23 ? 'tomorrow' : 'today'],
    ] as const) {
      const before = Date.now();
      const t = await startTestApp({ DIGEST_HOUR_UTC: String(digestHour) });
      try {
        const after = Date.now();
        const jobs = await queuedDigests(t);
        expect(jobs).toHaveLength(1);
        const queuedAt = new Date(jobs[0]!.start_after).toISOString();
        // Read either side of the start (an hour may turn while the app starts).
        expect([expectedAt(before, digestHour), expectedAt(after, digestHour)], when).toContain(queuedAt);
        const today = new Date(before).toISOString().slice(0, 10);
        if (expectedAt(before, digestHour) === expectedAt(after, digestHour)) expect(queuedAt.slice(0, 10) === today ? 'today' : 'tomorrow').toBe(when);
      } finally {
        await t.close();
      }
    }
  });
});

describe('a digest run twice on one day', () => {
  let t: TestApp;
  let mailbox: TestMailbox;
  beforeAll(async () => {
    mailbox = new TestMailbox();
    t = await startTestApp({ SMTP_URL: await mailbox.start(), ALERT_MATCH_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' });
  });
  afterAll(async () => {
    await t?.close();
    await mailbox?.stop();
  });

  const messageIdOf = (mail: ReceivedMail) => /^Message-ID: <([^>]+)>$/im.exec(mail.headers)?.[1];

  let listed = 0;
  async function list(seller: SignedInUser, model: string, price: number) {
    listed += 1;
    return listCar(t, seller, { make: 'Ferrari', model, year: 2019, price, mileage: 3_000 + listed, location: 'Miami, FL', description: 'Listed for the digest tests.' });
  }

  /** Waits until `carId` is recorded as a pending (not yet mailed) match of `searchId`. */
  const matched = (searchId: number, carId: number) =>
    waitUntil(
      async () =>
        (
          await t.database.db
            .select()
            .from(savedSearchMatches)
            .where(and(eq(savedSearchMatches.searchId, searchId), eq(savedSearchMatches.carId, carId), isNull(savedSearchMatches.alertedAt)))
        ).length === 1,
      10_000,
      `car ${carId} matched by search ${searchId}`,
    );

  it('sends the new matches in a second email with a Message-ID of its own, and nothing when nothing is new', async () => {
    const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
    const model = `Digest twice ${Date.now()}`;
    const search: SavedSearch = (await t.app.inject({ method: 'POST', url: '/api/saved-searches', headers: buyer.auth, payload: { name: 'Ferrari daily', query: { model }, alerts: 'daily' } })).json().data;
    const day = new Date().toISOString().slice(0, 10);

    const first = await list(seller, model, 200_000);
    await matched(search.id, first.id);
    expect(await t.app.services.savedSearches.sendDigests(day)).toBe(1);
    const morning = await mailbox.waitFor((m) => m.to.includes(buyer.email));
    expect(morning.subject).toBe('Ferrari daily: 1 new car today');
    expect(morning.body).toContain(`/car/${first.id}`);

    const second = await list(seller, model, 210_000);
    await matched(search.id, second.id);
    expect(await t.app.services.savedSearches.sendDigests(day)).toBe(1);
    const evening = await mailbox.waitFor((m) => m.to.includes(buyer.email) && m !== morning);
    expect(evening.subject).toBe('Ferrari daily: 1 new car today');
    // Only what is new since the first digest.
    expect(evening.body).toContain(`/car/${second.id}`);
    expect(evening.body).not.toContain(`/car/${first.id}`);
    expect(messageIdOf(morning)).toMatch(new RegExp(`^digest-${search.id}-${day}-`));
    expect(messageIdOf(evening)).toMatch(new RegExp(`^digest-${search.id}-${day}-`));
    expect(messageIdOf(evening)).not.toBe(messageIdOf(morning));

    // Nothing new: no third email.
    expect(await t.app.services.savedSearches.sendDigests(day)).toBe(0);
    await mailSettled(t);
    expect(mailbox.to(buyer.email)).toHaveLength(2);
  });

  it('sends one digest when two runs overlap, and neither run fails', async () => {
    const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
    const model = `Digest overlap ${Date.now()}`;
    const search: SavedSearch = (await t.app.inject({ method: 'POST', url: '/api/saved-searches', headers: buyer.auth, payload: { name: 'Overlap daily', query: { model }, alerts: 'daily' } })).json().data;
    const car = await list(seller, model, 150_000);
    await matched(search.id, car.id);
    const day = new Date().toISOString().slice(0, 10);
    const runs = await Promise.allSettled([t.app.services.savedSearches.sendDigests(day), t.app.services.savedSearches.sendDigests(day)]);
    expect(runs.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(runs.map((r) => (r as PromiseFulfilledResult<number>).value).sort()).toEqual([0, 1]);
    await mailbox.waitFor((m) => m.to.includes(buyer.email));
    // Every mail due has gone out: a second digest, had either run written one, would be among them.
    await mailSettled(t);
    expect(mailbox.to(buyer.email)).toHaveLength(1);
  });

  it('emails no alert and no digest to an owner who turned off saved-search email; the bell still rings for an instant alert', async () => {
    const [optedOut, mailed, seller] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const off = await t.app.inject({ method: 'PUT', url: '/api/users/notification-preferences', headers: optedOut.auth, payload: { events: { saved_search: { email: false } } } });
    expect(off.statusCode, off.body).toBe(200);
    const model = `Opted out ${Date.now()}`;
    const save = async (user: SignedInUser, alerts: 'instant' | 'daily') => {
      const res = await t.app.inject({ method: 'POST', url: '/api/saved-searches', headers: user.auth, payload: { name: `${alerts} search`, query: { model }, alerts } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as SavedSearch;
    };
    await save(optedOut, 'instant');
    await save(mailed, 'instant');
    const daily = [await save(optedOut, 'daily'), await save(mailed, 'daily')];

    const car = await list(seller, model, 175_000);
    await mailbox.waitFor((m) => m.to.includes(mailed.email) && m.subject.startsWith('instant search: '), 15_000);
    for (const search of daily) await matched(search.id, car.id);
    expect(await t.app.services.savedSearches.sendDigests(new Date().toISOString().slice(0, 10))).toBe(1);
    await mailbox.waitFor((m) => m.to.includes(mailed.email) && m.subject.startsWith('daily search: '));
    await mailSettled(t);

    expect(mailbox.to(optedOut.email)).toEqual([]);
    const bell = (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: optedOut.auth })).json().data.notifications as { event: string; carId: number | null }[];
    expect(bell.filter((n) => n.event === 'saved_search' && n.carId === car.id)).toHaveLength(1);
    // Its daily matches count as told: email turned on again brings new cars, not this one.
    const pending = await t.database.db.select().from(savedSearchMatches).where(and(eq(savedSearchMatches.searchId, daily[0]!.id), isNull(savedSearchMatches.alertedAt)));
    expect(pending).toEqual([]);
  });
});
