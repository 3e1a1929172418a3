import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { rowsOf, type Database, type Executor, type Transaction } from '../../../../db/client.ts';
import { cars, savedSearchMatches, savedSearches, sellers, users } from '../../../../db/schema/index.ts';
import { SAVED_SEARCH_LIMIT, type MatchReason, type SavedSearchAlerts } from '@common/market-data.ts';
import { carPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { criteriaProblems } from '@common/schemas/listing.ts';
import type { NewSavedSearch, SavedSearch, SavedSearchEdit, SavedSearchQuery } from '@common/schemas/discovery.ts';
import { conflict, notFound, validationFailed } from '../../lib/errors.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import { parseSearch } from '../cars.ts';
import { searchAlertEmail } from '../mail-templates.ts';
import type { Mailer } from '../mailer.ts';
import type { NotificationsService } from '../notifications.ts';
import type { UnsubscribeTokens } from './unsubscribe-token.ts';
import type { NotificationPreferences } from '../notify/preferences.ts';
import { ErrorCode } from '@common/error-codes.ts';

declare module '../../jobs/job-runner.ts' {
  interface JobPayloads {
    'saved-search.match': { carId: number; reason: MatchReason };
    'saved-search.digest': { day: string };
  }
}

export interface SavedSearchesDeps {
  db: Database;
  jobs: JobRunner;
  mailer: Mailer;
  notifications: NotificationsService;
  tokens: UnsubscribeTokens;
  /** Whether each owner takes `saved_search` by email (Settings → Notifications), read in the alert's transaction. */
  preferences: Pick<NotificationPreferences, 'choicesOf'>;
  log: FastifyBaseLogger;
  appUrl: string;
  /** The hour (UTC) daily digests go out. */
  digestHourUtc: number;
  /**
   * How long after a publication or price drop matching runs: a listing withdrawn within this
   * time alerts nobody (a car that is gone is never announced).
   */
  matchDelaySeconds: number;
}

type SearchRow = typeof savedSearches.$inferSelect;

const toSavedSearch = (row: SearchRow): SavedSearch => ({
  id: row.id,
  name: row.name,
  query: row.query,
  alerts: row.alerts,
  createdAt: row.createdAt.toISOString(),
  lastAlertAt: row.lastAlertAt?.toISOString() ?? null,
});

/** The criteria prepared for matching in SQL, as the listing reads them. */
function matchColumns(query: SavedSearchQuery) {
  const { years, words } = parseSearch(query.search);
  return {
    // Compared as the listing compares them: lowered by the database, on both sides.
    make: query.make === undefined ? null : sql<string>`lower(${query.make})`,
    model: query.model === undefined ? null : sql<string>`lower(${query.model})`,
    bodyStyle: query.bodyStyle ?? null,
    minYear: query.minYear ?? null,
    maxYear: query.maxYear ?? null,
    minPrice: query.minPrice ?? null,
    maxPrice: query.maxPrice ?? null,
    auctionsOnly: query.auctionsOnly ?? false,
    searchYears: years,
    searchWords: words,
  };
}

/**
 * Saved searches and their alerts. A publication or a price drop queues a matching job (never
 * work in the request that changed the car); the job matches the car against every alerting
 * search in one statement, records each match once (again only below the price it matched at),
 * and in the same transaction writes the instant alerts' notifications and emails (the mail
 * outbox, with a Message-ID fixed by search, car and price). Daily matches wait for the digest job.
 */
export class SavedSearchesService {
  constructor(private readonly deps: SavedSearchesDeps) {
    deps.jobs.define({ name: 'saved-search.match', handle: async (payload) => void (await this.match(payload.carId, payload.reason)) });
    deps.jobs.define({ name: 'saved-search.digest', policy: 'short', handle: async (payload) => void (await this.sendDigests(payload.day)) });
  }

  // ── The owner's searches ──────────────────────────────────────────────────────────────

  async list(userId: number): Promise<SavedSearch[]> {
    const rows = await this.deps.db.select().from(savedSearches).where(eq(savedSearches.userId, userId)).orderBy(desc(savedSearches.id));
    return rows.map(toSavedSearch);
  }

  async create(userId: number, input: NewSavedSearch): Promise<SavedSearch> {
    assertCriteria(input.query);
    return this.deps.db.transaction(async (tx) => {
      // One at a time per user, so two tabs saving the 20th and 21st cannot both pass the count.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('saved-searches'), ${userId})`);
      const [row] = await tx.select({ n: count() }).from(savedSearches).where(eq(savedSearches.userId, userId));
      if ((row?.n ?? 0) >= SAVED_SEARCH_LIMIT) throw conflict(ErrorCode.LIMIT_REACHED, `You can keep up to ${SAVED_SEARCH_LIMIT} saved searches. Delete one to save another.`);
      const [saved] = await tx
        .insert(savedSearches)
        .values({ userId, name: input.name.trim(), query: input.query, alerts: input.alerts, ...matchColumns(input.query) })
        .returning();
      return toSavedSearch(saved!);
    });
  }

  async update(userId: number, id: number, edit: SavedSearchEdit): Promise<SavedSearch> {
    if (edit.query) assertCriteria(edit.query);
    const [row] = await this.deps.db
      .update(savedSearches)
      .set({
        ...(edit.name !== undefined ? { name: edit.name.trim() } : {}),
        ...(edit.query !== undefined ? { query: edit.query, ...matchColumns(edit.query) } : {}),
        ...(edit.alerts !== undefined ? { alerts: edit.alerts } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
      .returning();
    if (!row) throw notFound('Saved search not found');
    return toSavedSearch(row);
  }

  async remove(userId: number, id: number): Promise<void> {
    const removed = await this.deps.db
      .delete(savedSearches)
      .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
      .returning({ id: savedSearches.id });
    if (removed.length === 0) throw notFound('Saved search not found');
  }

  /** The one-click unsubscribe: the token's search stops alerting. A forged or altered token changes nothing. */
  async unsubscribe(token: string): Promise<{ name: string }> {
    const searchId = this.deps.tokens.verify(token);
    if (searchId === null) throw validationFailed([{ field: 'token', message: 'This unsubscribe link is not valid' }]);
    const [row] = await this.deps.db
      .update(savedSearches)
      .set({ alerts: 'off', updatedAt: sql`now()` })
      .where(eq(savedSearches.id, searchId))
      .returning({ name: savedSearches.name });
    // A deleted search alerts nobody already: the link did its job.
    return { name: row?.name ?? 'your saved search' };
  }

  // ── Matching ──────────────────────────────────────────────────────────────────────────

  /** In the transaction that published the car or dropped its price: match it shortly after. */
  async matchLater(tx: Executor, carId: number, reason: MatchReason): Promise<void> {
    await this.deps.jobs.enqueue(tx, 'saved-search.match', { carId, reason }, { startAfter: new Date(Date.now() + this.deps.matchDelaySeconds * 1000) });
  }

  /**
   * Matches one car against every alerting search and alerts the new matches. Idempotent: run
   * twice (a retry, a process killed mid-way), the second run finds every match recorded and
   * alerts nobody again. A car no longer on the market alerts nobody.
   */
  async match(carId: number, reason: MatchReason): Promise<number> {
    const told = await this.deps.db.transaction(async (tx) => {
      const [car] = await tx
        .select({
          id: cars.id,
          make: cars.make,
          model: cars.model,
          year: cars.year,
          price: cars.price,
          bodyStyle: cars.bodyStyle,
          status: cars.status,
          searchText: cars.searchText,
          liveAuction: sql<boolean>`coalesce(${cars.auctionEndsAt} > now(), false)`,
          sellerUserId: sellers.userId,
        })
        .from(cars)
        .innerJoin(sellers, eq(sellers.id, cars.sellerId))
        .where(eq(cars.id, carId))
        .for('share', { of: cars });
      if (!car || car.status !== 'active') return [];
      const matched = await matchingSearches(tx, car, reason);
      if (matched.length === 0) return [];
      const instant = matched.filter((m) => m.alerts === 'instant');
      const title = `${car.year} ${car.make} ${car.model}`;
      const url = `${this.deps.appUrl}${carPath(car.id)}`;
      const why = reason === 'listed' ? `was just listed at ${formatUsd(car.price)}` : `dropped to ${formatUsd(car.price)}`;
      const rows = await this.deps.notifications.create(
        tx,
        // The alert's own mail (below) is its email, with its per-search unsubscribe.
        instant.map((m) => ({ userId: m.userId, type: 'system' as const, event: 'saved_search' as const, delivery: { email: false }, title: `New match: ${m.name}`, message: `The ${title} ${why}.`, carId: car.id })),
      );
      const mailed = await this.emailedOwners(tx, instant);
      await this.deps.mailer.sendMany(
        mailed.map((m) =>
          searchAlertEmail(
            m.email,
            `${m.name}: the ${title} ${why}`,
            [`Hello ${m.userName},`, `A car matching your saved search "${m.name}" ${why}: the ${title}.`],
            { label: 'View the car', url },
            this.unsubscribeLinks(m.searchId),
            `alert-${m.searchId}-${car.id}-${car.price}`,
          ),
        ),
        tx,
      );
      if (instant.length > 0) {
        await tx.execute(sql`update saved_searches set last_alert_at = now() where id in (${sql.join(instant.map((m) => sql`${m.searchId}`), sql`, `)})`);
      }
      return rows;
    });
    if (told.length > 0) {
      this.deps.mailer.wake();
      await this.deps.notifications.announce(told);
    }
    return told.length;
  }

  /** Those of `searches` whose owner takes `saved_search` by email. */
  private async emailedOwners<T extends { userId: number }>(tx: Executor, searches: T[]): Promise<T[]> {
    if (searches.length === 0) return [];
    const choices = await this.deps.preferences.choicesOf(tx, [...new Set(searches.map((s) => s.userId))]);
    return searches.filter((s) => choices.get(s.userId)?.events.saved_search.email !== false);
  }

  // ── Daily digests ─────────────────────────────────────────────────────────────────────

  /** At start: the next digest is queued (once, whichever process asks: one waiting job per day). */
  async scheduleNextDigest(executor: Executor = this.deps.db): Promise<void> {
    const next = nextDigestTime(new Date(), this.deps.digestHourUtc);
    await this.deps.jobs.enqueue(executor, 'saved-search.digest', { day: next.toISOString().slice(0, 10) }, { startAfter: next, singletonKey: `digest-${next.toISOString().slice(0, 10)}` });
  }

  /**
   * One email per daily search with the day's matches still on the market; each match is marked
   * in the transaction that queues its email, so a digest run twice sends nothing twice. A run
   * later the same day with new matches sends a second digest of those, under a Message-ID of
   * its own (the id follows the cars it lists, so only a resend of the same digest repeats it).
   */
  async sendDigests(day: string): Promise<number> {
    let sent = 0;
    const searches = await this.deps.db
      .selectDistinct({ searchId: savedSearchMatches.searchId })
      .from(savedSearchMatches)
      .innerJoin(savedSearches, eq(savedSearches.id, savedSearchMatches.searchId))
      .where(and(isNull(savedSearchMatches.alertedAt), eq(savedSearches.alerts, 'daily')));
    for (const { searchId } of searches) {
      const queued = await this.deps.db.transaction(async (tx) => {
        const [search] = await tx
          .select({ id: savedSearches.id, userId: savedSearches.userId, name: savedSearches.name, alerts: savedSearches.alerts, email: users.email, userName: users.name })
          .from(savedSearches)
          .innerJoin(users, eq(users.id, savedSearches.userId))
          .where(eq(savedSearches.id, searchId))
          .for('no key update', { of: savedSearches });
        if (!search || search.alerts !== 'daily') return false;
        const pending = await tx
          .update(savedSearchMatches)
          .set({ alertedAt: sql`now()` })
          .where(and(eq(savedSearchMatches.searchId, searchId), isNull(savedSearchMatches.alertedAt)))
          .returning({ carId: savedSearchMatches.carId });
        // Another run took them between the look-up above and this search's lock: nothing to send.
        if (pending.length === 0) return false;
        // An owner who turned off saved-search email gets no digest; the matches count as told, so
        // turning it on again brings new cars, not a backlog.
        if ((await this.emailedOwners(tx, [{ userId: search.userId }])).length === 0) return false;
        const listed = await tx
          .select({ id: cars.id, year: cars.year, make: cars.make, model: cars.model, price: cars.price })
          .from(cars)
          .where(and(sql`${cars.id} in (${sql.join(pending.map((p) => sql`${p.carId}`), sql`, `)})`, eq(cars.status, 'active')))
          .orderBy(asc(cars.price));
        if (listed.length === 0) return false;
        await this.deps.mailer.send(
          searchAlertEmail(
            search.email,
            `${search.name}: ${listed.length === 1 ? '1 new car' : `${listed.length} new cars`} today`,
            [
              `Hello ${search.userName},`,
              `Today's cars matching your saved search "${search.name}":`,
              ...listed.map((c) => `${c.year} ${c.make} ${c.model}, ${formatUsd(c.price)}: ${this.deps.appUrl}${carPath(c.id)}`),
            ],
            { label: 'View the first car', url: `${this.deps.appUrl}${carPath(listed[0]!.id)}` },
            this.unsubscribeLinks(search.id),
            digestMessageId(search.id, day, listed.map((c) => c.id)),
          ),
          tx,
        );
        await tx.update(savedSearches).set({ lastAlertAt: sql`now()` }).where(eq(savedSearches.id, search.id));
        return true;
      });
      if (queued) sent += 1;
    }
    if (sent > 0) this.deps.mailer.wake();
    await this.scheduleNextDigest();
    this.deps.log.info({ day, sent }, 'daily saved-search digests queued');
    return sent;
  }

  private unsubscribeLinks(searchId: number) {
    const token = this.deps.tokens.sign(searchId);
    return {
      pageUrl: `${this.deps.appUrl}/unsubscribe?token=${encodeURIComponent(token)}`,
      oneClickUrl: `${this.deps.appUrl}/api/saved-searches/unsubscribe?token=${encodeURIComponent(token)}`,
    };
  }
}

function assertCriteria(query: SavedSearchQuery): void {
  const problems = criteriaProblems(query).map((p) => ({ ...p, field: `query.${p.field}` }));
  if (problems.length > 0) throw validationFailed(problems);
}

/**
 * A digest's Message-ID: the search, the day and the cars it lists. Two digests of one search on
 * one day list different cars, so mail servers and clients (which drop a Message-ID seen before)
 * show both; a resend of the same digest keeps its id.
 */
export function digestMessageId(searchId: number, day: string, carIds: readonly number[]): string {
  const cars = [...carIds].sort((a, b) => a - b).join(',');
  return `digest-${searchId}-${day}-${createHash('sha256').update(cars).digest('hex').slice(0, 16)}`;
}

/** The next digest time: today at `hour` UTC if still ahead, else tomorrow. */
export function nextDigestTime(now: Date, hour: number): Date {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
  return today.getTime() > now.getTime() ? today : new Date(today.getTime() + 24 * 3600 * 1000);
}

interface MatchedSearch {
  searchId: number;
  userId: number;
  name: string;
  alerts: SavedSearchAlerts;
  email: string;
  userName: string;
}

/**
 * Every alerting search `car` matches, recorded in one statement: a new match, or one at a lower
 * price than it last matched at, is returned; anything already alerted at this price or below is not.
 */
async function matchingSearches(
  tx: Transaction,
  car: { id: number; make: string; model: string; year: number; price: number; bodyStyle: string; searchText: string; liveAuction: boolean; sellerUserId: number | null },
  reason: MatchReason,
): Promise<MatchedSearch[]> {
  const result = await tx.execute<{ search_id: number; user_id: number; name: string; alerts: SavedSearchAlerts; email: string; user_name: string }>(sql`
    with matched as (
      select s.id, s.user_id, s.name, s.alerts
      from saved_searches s
      where s.alerts <> 'off'
        and s.user_id is distinct from ${car.sellerUserId}
        and (s.make is null or s.make = lower(${car.make}))
        and (s.model is null or s.model = lower(${car.model}))
        and (s.body_style is null or s.body_style = ${car.bodyStyle})
        and (s.min_year is null or s.min_year <= ${car.year})
        and (s.max_year is null or s.max_year >= ${car.year})
        and (s.min_price is null or s.min_price <= ${car.price})
        and (s.max_price is null or s.max_price >= ${car.price})
        and (not s.auctions_only or ${car.liveAuction})
        and ${car.year} = all(s.search_years)
        and not exists (
          select 1 from unnest(s.search_words) w
          where not (strpos(${car.searchText}, w) > 0 or (char_length(w) >= 4 and w <% ${car.searchText}))
        )
    ),
    recorded as (
      insert into saved_search_matches (search_id, car_id, price, reason, alerted_at)
      select m.id, ${car.id}, ${car.price}, ${reason}, case when m.alerts = 'instant' then now() end from matched m
      on conflict (search_id, car_id) do update
        set price = excluded.price, reason = excluded.reason, matched_at = now(), alerted_at = excluded.alerted_at
        where saved_search_matches.price > excluded.price
      returning search_id
    )
    select m.id as search_id, m.user_id, m.name, m.alerts, u.email, u.name as user_name
    from recorded r join matched m on m.id = r.search_id join users u on u.id = m.user_id
  `);
  return (rowsOf(result) as unknown as { search_id: number; user_id: number; name: string; alerts: SavedSearchAlerts; email: string; user_name: string }[]).map((r) => ({
    searchId: Number(r.search_id),
    userId: Number(r.user_id),
    name: r.name,
    alerts: r.alerts,
    email: r.email,
    userName: r.user_name,
  }));
}
