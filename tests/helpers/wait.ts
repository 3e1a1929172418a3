import type { Page } from 'playwright-core';
import { userRoom } from '../../server/src/realtime/rooms.ts';
import type { TestApp } from './app.ts';
import type { ReceivedMail, TestMailbox } from './smtp.ts';
import { waitUntil, type ClientSocket } from './sockets.ts';

/**
 * Waiting for what a test expects instead of for a fixed time: a test waits until its
 * condition holds (and fails, saying what it waited for, when it never does), so it is as
 * fast as the machine allows and does not fail when the machine is slow.
 */

export { waitUntil };

export interface WaitOptions {
  /** How long before the wait fails (10 s unless told). */
  timeoutMs?: number;
  /** What is awaited, for the failure message. */
  message?: string;
}

/** Waits until `probe` answers something other than undefined, null or false, and returns it. */
export async function waitFor<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: WaitOptions = {}): Promise<T> {
  let found: T | undefined | null | false;
  await waitUntil(
    async () => {
      found = await probe();
      return found !== undefined && found !== null && found !== false;
    },
    options.timeoutMs ?? 10_000,
    options.message ?? 'condition',
  );
  return found as T;
}

/**
 * The jobs of `queues` (every queue unless told) that are running or still to run: due now, or
 * with `later`, also those planned for later (a delayed match, a retry's back-off).
 */
export async function jobsPending(t: TestApp, queues: string | readonly string[] = [], options: { later?: boolean; data?: Record<string, string> } = {}): Promise<number> {
  const names = typeof queues === 'string' ? [queues] : queues;
  const data = Object.entries(options.data ?? {});
  const params: string[] = [...names, ...data.flat()];
  const { rows } = await t.database.sql.executeSql(
    `select count(*)::int as n from pgboss.job where state in ('created', 'retry', 'active')` +
      (options.later ? '' : ' and start_after <= now()') +
      (names.length > 0 ? ` and name in (${names.map((_, i) => `$${i + 1}`).join(', ')})` : '') +
      data.map((_, i) => ` and data->>$${names.length + 2 * i + 1} = $${names.length + 2 * i + 2}`).join(''),
    params,
  );
  return Number(rows[0]!.n);
}

/**
 * Waits until no job of `queues` (every queue unless told) is due or running: whatever the app
 * had to do by now has been done. Jobs planned for later (a deadline, a retry's back-off) do not count.
 */
export async function jobsSettled(t: TestApp, queues: string | readonly string[] = [], options: WaitOptions = {}): Promise<void> {
  await waitUntil(async () => (await jobsPending(t, queues)) === 0, options.timeoutMs ?? 15_000, options.message ?? `${String(queues) || 'every'} job done`);
}

/**
 * Waits until no job of `queues` is left at all, planned for later included: nothing of that kind
 * can happen any more. What a test asserts did NOT happen (no second email, no alert for a
 * withdrawn car) is then shown by the work that could have caused it being over, not by a pause.
 */
export async function jobsDone(t: TestApp, queues: string | readonly string[], options: WaitOptions & { data?: Record<string, string> } = {}): Promise<void> {
  await waitUntil(async () => (await jobsPending(t, queues, { later: true, ...(options.data ? { data: options.data } : {}) })) === 0, options.timeoutMs ?? 20_000, options.message ?? `every ${String(queues)} job run`);
}

/**
 * Waits until the server process at `url` has no job of `queues` due or running, as its
 * /metrics reports (`jobs_due`): for a server in another process, whose database the test
 * cannot read while it runs (the embedded one).
 */
export async function jobsSettledAt(url: string, queues: readonly string[], options: WaitOptions = {}): Promise<void> {
  const due = async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    if (!text.includes('# TYPE jobs_due gauge')) throw new Error(`${url}/metrics does not report jobs_due`);
    return queues.reduce((sum, queue) => sum + Number(new RegExp(`^jobs_due\\{queue="${queue.replace(/\./g, '\\.')}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0), 0);
  };
  await waitUntil(async () => (await due()) === 0, options.timeoutMs ?? 15_000, options.message ?? `no ${queues.join(', ')} job due at ${url}`);
}

/** The queue the mail outbox sends through. */
export const MAIL_QUEUE = 'mail.send';

/** Waits until every mail due has been handed to the mail server (no `mail.send` job due or running). */
export function mailSettled(t: TestApp, options: WaitOptions = {}): Promise<void> {
  return jobsSettled(t, MAIL_QUEUE, { message: 'the mail due sent', ...options });
}

/** Waits until the saved-search matching that is planned has run and every mail it wrote has gone out. */
export function alertsDone(t: TestApp, options: WaitOptions = {}): Promise<void> {
  return jobsDone(t, ['saved-search.match', MAIL_QUEUE], { message: 'matching and its mail done', ...options });
}

/** How many distinct mails (by Message-ID) have a later attempt queued after a failed one. */
export async function mailsRetried(t: TestApp): Promise<number> {
  const { rows } = await t.database.sql.executeSql(
    `select count(distinct data->>'messageId')::int as n from pgboss.job where name = '${MAIL_QUEUE}' and data->'failures' is not null`,
    [],
  );
  return Number(rows[0]!.n);
}

/** Waits until `mailbox` holds `count` messages matching `predicate`, and returns them. */
export async function mailsArrived(mailbox: TestMailbox, predicate: (m: ReceivedMail) => boolean, count: number, options: WaitOptions = {}): Promise<ReceivedMail[]> {
  await waitUntil(() => mailbox.messages.filter(predicate).length >= count, options.timeoutMs ?? 10_000, options.message ?? `${count} matching emails`);
  return mailbox.messages.filter(predicate);
}

/**
 * Lets `ms` pass. Only for what no condition can show: that something does NOT happen within a
 * window (no second email, no late push), or a real duration the assertion is about. `why`
 * says which, so every fixed wait left in the tests names its reason where it is used.
 */
export function quietFor(ms: number, why: string): Promise<void> {
  if (why.trim() === '') throw new Error('quietFor needs the reason no condition can be awaited');
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Waits until the wall clock reaches `at` (ms since the epoch): for a test about what happens at
 * a moment (bids in an auction's last second), where the moment itself is the condition.
 */
export function clockPassed(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
}

/**
 * Waits until every push the server sent `socket` before now has arrived: an acknowledged
 * request on the same connection is answered after them (one connection keeps its order). The
 * request leaves a room the socket is not in, which changes nothing. For asserting that a move
 * pushed nothing more: the pushes a request causes are sent before its answer, so once the
 * answers are in and the socket has caught up, a stray push would be here.
 */
export async function caughtUp(socket: ClientSocket): Promise<void> {
  await socket.timeout(5_000).emitWithAck('car:leave', { carId: 2_147_483_647 });
}

/**
 * Waits until the page has nothing left to do (the browser calls back when idle): what the app
 * had scheduled after a load or an action (rendering, effects, console reports) has run.
 */
export async function pageIdle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 5_000 })));
}

/** Waits until a real-time connection of `userId` has joined the user's rooms on the server (pushes to the user reach it). */
export async function userConnected(t: TestApp, userId: number, options: WaitOptions = {}): Promise<void> {
  await waitUntil(async () => (await t.app.io.in(userRoom(userId)).fetchSockets()).length > 0, options.timeoutMs ?? 15_000, options.message ?? `a connection of user ${userId}`);
}
