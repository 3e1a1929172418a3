import type { NotificationEvent } from '@common/notifications.ts';
import { and, asc, count, desc, eq, gt, inArray, isNull, lt, min, ne, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../../db/client.ts';
import { chatMessages, chatReports, chatVotes, userMutes, users } from '../../../../db/schema/index.ts';
import {
  CHAT_DUPLICATE_WINDOW_SECONDS,
  CHAT_RATE_LIMIT,
  CHAT_REPORTS_TO_HOLD,
} from '@common/discussion.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { carVisibleTo } from '@common/listing.ts';
import type { CarQuestion, ChatMessage, ChatReported, ChatVote, ReportChat } from '@common/schemas/chat.ts';
import type { PostChat } from '@common/schemas/commerce.ts';
import { AppError, conflict, forbidden, notFound, validationFailed } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { carTitle, findCarOwner } from '../chat.ts';
import type { NewNotification, NotificationsService } from '../notifications.ts';
import { screenMessage } from './contact-guard.ts';
import { nowMinus, toDiscussionMessages, visibleReplyCount, visibleTo, type ChatRow, type Reader } from './read-model.ts';

type CarOwner = NonNullable<Awaited<ReturnType<typeof findCarOwner>>>;

export interface DiscussionOptions {
  /** Run the contact guard on every post (off only in the benchmark of its cost). */
  contactGuard: boolean;
  /** The app's own hosts: links to them are not off-platform. */
  ownHosts: readonly string[];
}

const QUESTIONS_LIMIT = 100;

/**
 * A car's discussion (contract v4): posting with the contact guard, rate limits and replies;
 * votes and reports; the seller's Q&A. Who sees what is decided here, in the queries.
 */
export class DiscussionService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifications: NotificationsService,
    private readonly options: DiscussionOptions,
  ) {}

  async list(carId: number, options: { after?: number | undefined; limit: number }, reader: Reader = null): Promise<ChatMessage[]> {
    const car = await findCarOwner(this.db, carId);
    if (!car || !carVisibleTo(car.status, { isSeller: reader !== null && car.sellerUserId === reader.userId, isStaff: reader?.isStaff ?? false })) {
      throw notFound('Car not found');
    }
    const seen = visibleTo(reader);
    let rows: ChatRow[];
    if (options.after !== undefined) {
      rows = await this.db
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.carId, carId), gt(chatMessages.id, options.after), seen))
        .orderBy(asc(chatMessages.id))
        .limit(options.limit);
    } else {
      // Without a cursor: the latest messages, still oldest first.
      rows = (
        await this.db
          .select()
          .from(chatMessages)
          .where(and(eq(chatMessages.carId, carId), seen))
          .orderBy(desc(chatMessages.id))
          .limit(options.limit)
      ).reverse();
    }
    return toDiscussionMessages(this.db, carId, car.sellerUserId, rows, reader);
  }

  async post(author: { userId: number; name: string }, input: Required<Omit<PostChat, 'parentId'>> & { parentId?: number | undefined }): Promise<ChatMessage> {
    if (input.message.trim() === '') throw validationFailed([{ field: 'message', message: 'Message cannot be empty' }]);
    const car = await findCarOwner(this.db, input.carId);
    if (!car || !carVisibleTo(car.status, { isSeller: car.sellerUserId === author.userId, isStaff: false })) throw notFound('Car not found');
    const verdict = this.options.contactGuard ? screenMessage(input.message, { ownHosts: this.options.ownHosts }) : { held: false as const };
    const parentId = input.parentId ?? null;

    const { message, notified, parentUpdate } = await this.db.transaction(async (tx) => {
      // One user's posts are written one at a time, so the limits below count exactly.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, author.userId)).for('no key update');
      await refuseIfMuted(tx, author.userId);
      const parent = parentId === null ? null : await replyParent(tx, car.id, parentId);
      await refuseIfTooFast(tx, author.userId, car.id, input.message);

      const [row] = await tx
        .insert(chatMessages)
        .values({
          carId: car.id,
          userId: author.userId,
          userName: author.name,
          message: input.message,
          type: input.type,
          parentId,
          status: verdict.held ? 'held' : 'visible',
          heldBy: verdict.held ? 'guard' : null,
        })
        .returning();
      const message = (await toDiscussionMessages(tx, car.id, car.sellerUserId, [row!], { userId: author.userId, isStaff: false }))[0]!;
      if (verdict.held) return { message, notified: [], parentUpdate: null };
      const notified = await this.notifications.create(tx, await notificationsFor(tx, car, row!, parent));
      const parentUpdate = parent ? { carId: car.id, id: parent.id, upvotes: parent.upvotes, replyCount: await visibleReplyCount(tx, parent.id) } : null;
      return { message, notified, parentUpdate };
    });
    if (message.status === 'held') {
      this.events.publish('chat.held', { message, userId: author.userId });
    } else {
      this.events.publish('chat.posted', { message });
      if (parentUpdate) this.events.publish('chat.updated', parentUpdate);
    }
    await this.notifications.announce(notified);
    return message;
  }

  async upvote(voter: { userId: number }, messageId: number, on: boolean): Promise<ChatVote> {
    const { upvotes, changed, row } = await this.db.transaction(async (tx) => {
      await refuseIfMuted(tx, voter.userId);
      const row = await this.votable(tx, voter.userId, messageId);
      // The vote row and the count change together: the unique (message, user) pair makes a
      // repeat change nothing, and the count moves by one under the message's row lock.
      const changed = on
        ? (await tx.insert(chatVotes).values({ messageId, userId: voter.userId }).onConflictDoNothing().returning({ messageId: chatVotes.messageId })).length > 0
        : (await tx.delete(chatVotes).where(and(eq(chatVotes.messageId, messageId), eq(chatVotes.userId, voter.userId))).returning({ messageId: chatVotes.messageId })).length > 0;
      if (!changed) return { upvotes: row.upvotes, changed, row };
      const [updated] = await tx
        .update(chatMessages)
        .set({ upvotes: on ? sql`${chatMessages.upvotes} + 1` : sql`${chatMessages.upvotes} - 1` })
        .where(eq(chatMessages.id, messageId))
        .returning({ upvotes: chatMessages.upvotes });
      return { upvotes: updated!.upvotes, changed, row };
    });
    if (changed) {
      const replyCount = row.parentId === null ? await visibleReplyCount(this.db, row.id) : 0;
      this.events.publish('chat.updated', { carId: row.carId, id: row.id, upvotes, replyCount });
    }
    return { id: messageId, upvotes, upvotedByMe: on };
  }

  async report(reporter: { userId: number }, messageId: number, input: ReportChat): Promise<ChatReported> {
    const note = input.note?.trim() ? input.note : null;
    const { reportId, heldNow, row } = await this.db.transaction(async (tx) => {
      await refuseIfMuted(tx, reporter.userId);
      const row = await this.votable(tx, reporter.userId, messageId);
      const [report] = await tx.insert(chatReports).values({ messageId, reporterId: reporter.userId, reason: input.reason, note }).onConflictDoNothing().returning({ id: chatReports.id });
      if (!report) throw conflict(ErrorCode.ALREADY_REPORTED);
      const [reports] = await tx.select({ n: count() }).from(chatReports).where(eq(chatReports.messageId, messageId));
      let heldNow = false;
      if (Number(reports!.n) >= CHAT_REPORTS_TO_HOLD) {
        // Conditional: only the report that crosses the line while the message is visible holds it.
        const held = await tx
          .update(chatMessages)
          .set({ status: 'held', heldBy: 'reports' })
          .where(and(eq(chatMessages.id, messageId), eq(chatMessages.status, 'visible')))
          .returning({ id: chatMessages.id });
        heldNow = held.length > 0;
      }
      return { reportId: report.id, heldNow, row };
    });
    if (heldNow) {
      this.events.publish('chat.removed', { carId: row.carId, id: row.id, authorId: row.userId });
      if (row.parentId !== null) await this.publishParentUpdate(row.carId, row.parentId);
    }
    return { id: reportId };
  }

  /** Visible top-level questions with the seller's visible replies; answered first, then newest first. */
  async questions(carId: number, reader: Reader = null): Promise<CarQuestion[]> {
    const car = await findCarOwner(this.db, carId);
    if (!car || !carVisibleTo(car.status, { isSeller: reader !== null && car.sellerUserId === reader.userId, isStaff: reader?.isStaff ?? false })) {
      throw notFound('Car not found');
    }
    return questionsOf(this.db, car, reader);
  }

  async publishParentUpdate(carId: number, parentId: number): Promise<void> {
    const [parent] = await this.db.select({ upvotes: chatMessages.upvotes }).from(chatMessages).where(eq(chatMessages.id, parentId));
    if (!parent) return;
    this.events.publish('chat.updated', { carId, id: parentId, upvotes: parent.upvotes, replyCount: await visibleReplyCount(this.db, parentId) });
  }

  /** The message a user may vote on or report: one they can see (else 404), not their own (403). Locked for the change. */
  private async votable(tx: Executor, userId: number, messageId: number): Promise<ChatRow> {
    const [row] = await tx.select().from(chatMessages).where(eq(chatMessages.id, messageId)).for('no key update');
    if (!row || row.status !== 'visible') throw notFound('Message not found');
    const car = await findCarOwner(tx, row.carId);
    if (!car || !carVisibleTo(car.status, { isSeller: car.sellerUserId === userId, isStaff: false })) throw notFound('Message not found');
    if (row.userId === userId) throw forbidden(ErrorCode.NOT_ALLOWED, 'You cannot vote on or report your own message');
    return row;
  }
}

/** The car's answered questions first (newest first), then the unanswered ones (newest first). */
export async function questionsOf(db: Executor, car: CarOwner, reader: Reader): Promise<CarQuestion[]> {
  const questions = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.carId, car.id), eq(chatMessages.type, 'question'), isNull(chatMessages.parentId), eq(chatMessages.status, 'visible')))
    .orderBy(desc(chatMessages.id))
    .limit(QUESTIONS_LIMIT);
  if (questions.length === 0) return [];
  const answers =
    car.sellerUserId === null
      ? []
      : await db
          .select()
          .from(chatMessages)
          .where(
            and(
              inArray(
                chatMessages.parentId,
                questions.map((q) => q.id),
              ),
              eq(chatMessages.userId, car.sellerUserId),
              eq(chatMessages.status, 'visible'),
            ),
          )
          .orderBy(asc(chatMessages.id));
  const messages = await toDiscussionMessages(db, car.id, car.sellerUserId, [...questions, ...answers], reader);
  const byId = new Map(messages.map((m) => [m.id, m]));
  const threads = questions.map((q) => ({ question: byId.get(q.id)!, answers: answers.filter((a) => a.parentId === q.id).map((a) => byId.get(a.id)!) }));
  return [...threads.filter((t) => t.answers.length > 0), ...threads.filter((t) => t.answers.length === 0)];
}

async function refuseIfMuted(tx: Executor, userId: number): Promise<void> {
  const [mute] = await tx
    .select({ until: userMutes.until })
    .from(userMutes)
    .where(and(eq(userMutes.userId, userId), gt(userMutes.until, sql`now()`)));
  if (mute) {
    throw new AppError(ErrorCode.MUTED, `You are muted in discussions until ${mute.until.toISOString()}`, { until: mute.until.toISOString() });
  }
}

/** The parent a reply may have: a visible top-level message of the same car (400 naming parentId otherwise). Locked so reply counts are exact. */
async function replyParent(tx: Executor, carId: number, parentId: number): Promise<ChatRow> {
  const [parent] = await tx.select().from(chatMessages).where(eq(chatMessages.id, parentId)).for('no key update');
  const refuse = (message: string) => validationFailed([{ field: 'parentId', message }]);
  if (!parent || parent.status !== 'visible') throw refuse('parentId names no message of this discussion that can be answered');
  if (parent.carId !== carId) throw refuse("parentId names a message of another car's discussion");
  if (parent.parentId !== null) throw refuse('parentId names a reply: answer the message it replies to');
  return parent;
}

/** At most CHAT_RATE_LIMIT messages per car in its window, and never the same text twice in a row. */
async function refuseIfTooFast(tx: Executor, userId: number, carId: number, text: string): Promise<void> {
  // A bid's line in the stream is the bid's, not something the user typed: it never counts.
  const mine = and(eq(chatMessages.userId, userId), eq(chatMessages.carId, carId), ne(chatMessages.type, 'bid'));
  const [recent] = await tx
    .select({ n: count(), oldest: min(chatMessages.createdAt), now: sql<Date>`now()`.mapWith((v: string | Date) => new Date(v)) })
    .from(chatMessages)
    .where(and(mine, gt(chatMessages.createdAt, nowMinus(CHAT_RATE_LIMIT.windowSeconds))));
  if (recent && Number(recent.n) >= CHAT_RATE_LIMIT.messages) {
    const oldest = recent.oldest ? new Date(recent.oldest).getTime() : Date.now();
    const retryAfter = Math.max(1, Math.ceil((oldest + CHAT_RATE_LIMIT.windowSeconds * 1000 - new Date(recent.now).getTime()) / 1000));
    throw new AppError(ErrorCode.RATE_LIMITED, `At most ${CHAT_RATE_LIMIT.messages} messages on one car in ${CHAT_RATE_LIMIT.windowSeconds} seconds. Try again in ${retryAfter} s.`, {
      retryAfter,
    });
  }
  const [same] = await tx
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(mine, eq(chatMessages.message, text), gt(chatMessages.createdAt, nowMinus(CHAT_DUPLICATE_WINDOW_SECONDS))))
    .limit(1);
  if (same) throw conflict(ErrorCode.DUPLICATE_MESSAGE, 'You posted this same message here a moment ago');
}

/**
 * Who hears of a visible message: the car's seller of each message by someone else, the parent's
 * author of each reply, and (for a top-level message by the seller) those whose questions were
 * waiting for an answer. Each person once.
 */
export async function notificationsFor(tx: Executor, car: CarOwner, row: ChatRow, parent: Pick<ChatRow, 'id' | 'userId'> | null): Promise<NewNotification[]> {
  const authorId = row.userId;
  const line = `${row.userName} on ${carTitle(car)}: ${preview(row.message)}`;
  const out = new Map<number, NewNotification>();
  const add = (userId: number | null, title: string, event: NotificationEvent) => {
    if (userId === null || userId === authorId || out.has(userId)) return;
    out.set(userId, { userId, type: 'message', event, title, message: line, carId: car.id });
  };
  const bySeller = car.sellerUserId !== null && authorId === car.sellerUserId;
  if (parent) add(parent.userId, bySeller ? 'The seller answered' : 'New reply to your message', 'reply_received');
  if (bySeller && !parent && authorId !== null) {
    for (const asker of await unansweredAskers(tx, car.id, authorId, row.id)) add(asker, 'The seller answered', 'reply_received');
  }
  if (!bySeller) add(car.sellerUserId, row.type === 'question' ? 'New question about your car' : 'New message about your car', 'question_received');
  return [...out.values()];
}

/** Who asked a question on the car since the seller last wrote there (before message `before`). */
async function unansweredAskers(tx: Executor, carId: number, sellerUserId: number, before: number): Promise<number[]> {
  const [lastAnswer] = await tx
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.carId, carId), eq(chatMessages.userId, sellerUserId), lt(chatMessages.id, before)))
    .orderBy(desc(chatMessages.id))
    .limit(1);
  const askers = await tx
    .selectDistinct({ userId: chatMessages.userId })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.carId, carId),
        eq(chatMessages.type, 'question'),
        eq(chatMessages.status, 'visible'),
        gt(chatMessages.id, lastAnswer?.id ?? 0),
        lt(chatMessages.id, before),
      ),
    );
  return askers.map((a) => a.userId).filter((id): id is number => id !== null && id !== sellerUserId);
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
