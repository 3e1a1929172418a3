import { and, asc, eq, exists, gt, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { chatMessages, chatReports, userMutes, users } from '../../../../db/schema/index.ts';
import type { ChatQueueFilter } from '@common/discussion.ts';
import { ErrorCode } from '@common/error-codes.ts';
import type { ChatMessage, QueuedChatMessage, UserMute } from '@common/schemas/chat.ts';
import type { Clock } from '../../lib/clock.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { recordAudit } from '../audit.ts';
import { auditActor, type Staff } from '../back-office/staff.ts';
import { carTitle, findCarOwner } from '../chat.ts';
import type { NotificationsService } from '../notifications.ts';
import { notificationsFor } from './discussion.ts';
import { toDiscussionMessages, visibleReplyCount, type ChatRow } from './read-model.ts';

const QUEUE_LIMIT = 200;

/**
 * The console's side of the discussion: the queue of held and reported messages, approve and
 * remove (each a conditional change under the message's row lock, so of two operators at once
 * one wins and the other gets 409), and muting users. Every write is audited in its transaction.
 */
export class DiscussionModeration {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifications: NotificationsService,
    private readonly clock: Clock,
  ) {}

  async queue(filter: ChatQueueFilter | undefined): Promise<QueuedChatMessage[]> {
    const reported = and(
      eq(chatMessages.status, 'visible'),
      exists(this.db.select({ one: sql`1` }).from(chatReports).where(eq(chatReports.messageId, chatMessages.id))),
    );
    const held = eq(chatMessages.status, 'held');
    const rows = await this.db
      .select()
      .from(chatMessages)
      .where(filter === 'held' ? held : filter === 'reported' ? or(reported, and(held, eq(chatMessages.heldBy, 'reports'))) : or(held, reported))
      .orderBy(asc(chatMessages.id))
      .limit(QUEUE_LIMIT);
    if (rows.length === 0) return [];
    const reports = await this.db
      .select()
      .from(chatReports)
      .where(
        inArray(
          chatReports.messageId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(chatReports.id));
    const staffReader = { userId: 0, isStaff: true };
    const out: QueuedChatMessage[] = [];
    const carsById = new Map<number, Awaited<ReturnType<typeof findCarOwner>>>();
    for (const row of rows) {
      if (!carsById.has(row.carId)) carsById.set(row.carId, await findCarOwner(this.db, row.carId));
      const car = carsById.get(row.carId) ?? null;
      const [message] = await toDiscussionMessages(this.db, row.carId, car?.sellerUserId ?? null, [row], staffReader);
      out.push({
        ...message!,
        carTitle: car ? carTitle(car) : `Car #${row.carId}`,
        heldBy: row.status === 'held' ? row.heldBy : null,
        reports: reports.filter((r) => r.messageId === row.id).map((r) => ({ reason: r.reason, note: r.note, at: r.createdAt.toISOString() })),
      });
    }
    return out;
  }

  /** A held message becomes visible (pushed and notified as new); a visible one's reports are dismissed. */
  async approve(staff: Staff, messageId: number, reason: string): Promise<ChatMessage> {
    const now = this.clock.now();
    const { row, car, notified, published } = await this.db.transaction(async (tx) => {
      const found = await lockMessage(tx, messageId);
      const [reportCount] = await tx.select({ n: sql<number>`count(*)::int` }).from(chatReports).where(eq(chatReports.messageId, messageId));
      const reports = Number(reportCount?.n ?? 0);
      if (found.status !== 'held' && !(found.status === 'visible' && reports > 0)) throw conflict(ErrorCode.INVALID_TRANSITION, 'This message is not waiting for a decision');
      const car = await findCarOwner(tx, found.carId);
      if (!car) throw notFound('Message not found');
      // Reports are answered by the approval: later ones count afresh.
      await tx.delete(chatReports).where(eq(chatReports.messageId, messageId));
      const [row] = await tx.update(chatMessages).set({ status: 'visible', heldBy: null }).where(eq(chatMessages.id, messageId)).returning();
      await recordAudit(
        tx,
        {
          actor: auditActor(staff),
          action: 'chat.approve',
          targetType: 'chat_message',
          targetId: messageId,
          reason,
          before: { status: found.status, heldBy: found.heldBy, reports },
          after: { status: 'visible' },
        },
        now,
      );
      const published = found.status === 'held';
      const parent = row!.parentId === null ? null : ((await tx.select().from(chatMessages).where(eq(chatMessages.id, row!.parentId)))[0] ?? null);
      // A message held by reports was already announced when it was posted.
      const notified = published && found.heldBy === 'guard' ? await this.notifications.create(tx, await notificationsFor(tx, car, row!, parent)) : [];
      return { row: row!, car, notified, published };
    });
    const [message] = await toDiscussionMessages(this.db, row.carId, car.sellerUserId, [row], { userId: staff.userId, isStaff: true });
    if (published) {
      this.events.publish('chat.posted', { message: { ...message!, upvotedByMe: false } });
      await this.publishParent(row);
    }
    await this.notifications.announce(notified);
    return message!;
  }

  /** Removed for everyone but staff; its author is told why. */
  async remove(staff: Staff, messageId: number, reason: string): Promise<ChatMessage> {
    const now = this.clock.now();
    const { row, car, notified, wasVisible } = await this.db.transaction(async (tx) => {
      const found = await lockMessage(tx, messageId);
      if (found.status === 'removed') throw conflict(ErrorCode.INVALID_TRANSITION, 'This message is already removed');
      const car = await findCarOwner(tx, found.carId);
      if (!car) throw notFound('Message not found');
      const [row] = await tx.update(chatMessages).set({ status: 'removed' }).where(eq(chatMessages.id, messageId)).returning();
      await recordAudit(
        tx,
        {
          actor: auditActor(staff),
          action: 'chat.remove',
          targetType: 'chat_message',
          targetId: messageId,
          reason,
          before: { status: found.status, heldBy: found.heldBy },
          after: { status: 'removed' },
        },
        now,
      );
      const notified =
        found.userId === null
          ? []
          : await this.notifications.create(tx, [
              { userId: found.userId, type: 'system', event: 'moderation', title: 'Your message was removed', message: `On ${carTitle(car)}, our team removed your message: ${reason}`, carId: car.id },
            ]);
      return { row: row!, car, notified, wasVisible: found.status === 'visible' };
    });
    this.events.publish('chat.removed', { carId: row.carId, id: row.id, authorId: row.userId });
    if (wasVisible) await this.publishParent(row);
    await this.notifications.announce(notified);
    const [message] = await toDiscussionMessages(this.db, row.carId, car.sellerUserId, [row], { userId: staff.userId, isStaff: true });
    return message!;
  }

  async mute(staff: Staff, userId: number, reason: string, hours: number): Promise<UserMute> {
    if (userId === staff.userId) throw conflict(ErrorCode.NOT_ALLOWED_ON_SELF);
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
      if (!user) throw notFound('User not found');
      const [before] = await tx.select({ until: userMutes.until }).from(userMutes).where(eq(userMutes.userId, userId));
      const until = new Date(now.getTime() + hours * 3_600_000);
      await tx
        .insert(userMutes)
        .values({ userId, until, reason, mutedBy: staff.userId, createdAt: now })
        .onConflictDoUpdate({ target: userMutes.userId, set: { until, reason, mutedBy: staff.userId, createdAt: now } });
      await recordAudit(
        tx,
        {
          actor: auditActor(staff),
          action: 'user.mute',
          targetType: 'user',
          targetId: userId,
          reason,
          before: { mutedUntil: before && before.until > now ? before.until.toISOString() : null },
          after: { mutedUntil: until.toISOString(), hours },
        },
        now,
      );
      return { userId, mutedUntil: until.toISOString() };
    });
  }

  async unmute(staff: Staff, userId: number, reason: string): Promise<UserMute> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
      if (!user) throw notFound('User not found');
      const lifted = await tx
        .delete(userMutes)
        .where(and(eq(userMutes.userId, userId), gt(userMutes.until, now)))
        .returning({ until: userMutes.until });
      if (lifted.length === 0) throw conflict(ErrorCode.NOT_MUTED);
      await recordAudit(
        tx,
        {
          actor: auditActor(staff),
          action: 'user.unmute',
          targetType: 'user',
          targetId: userId,
          reason,
          before: { mutedUntil: lifted[0]!.until.toISOString() },
          after: { mutedUntil: null },
        },
        now,
      );
      return { userId, mutedUntil: null };
    });
  }

  private async publishParent(row: ChatRow): Promise<void> {
    if (row.parentId === null) return;
    const [parent] = await this.db.select({ upvotes: chatMessages.upvotes }).from(chatMessages).where(eq(chatMessages.id, row.parentId));
    if (!parent) return;
    this.events.publish('chat.updated', { carId: row.carId, id: row.parentId, upvotes: parent.upvotes, replyCount: await visibleReplyCount(this.db, row.parentId) });
  }
}

/** The message under its row lock: a second operator waits here, then finds it decided. */
async function lockMessage(tx: Parameters<Parameters<Database['transaction']>[0]>[0], messageId: number): Promise<ChatRow> {
  const [found] = await tx.select().from(chatMessages).where(eq(chatMessages.id, messageId)).for('no key update');
  if (!found) throw notFound('Message not found');
  return found;
}
