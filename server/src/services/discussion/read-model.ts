import { and, count, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../../db/client.ts';
import { bids, chatMessages, chatVotes, orders, users } from '../../../../db/schema/index.ts';
import { STAFF_ROLES } from '@common/back-office.ts';
import type { ChatAuthorTag } from '@common/discussion.ts';
import type { ChatMessage } from '@common/schemas/chat.ts';
import { toChatMessage } from '../chat.ts';

export type ChatRow = typeof chatMessages.$inferSelect;

/** Who reads the discussion: what they may see and which of their votes to mark. */
export type Reader = { userId: number; isStaff: boolean } | null;

/**
 * What `reader` may see: everyone the visible messages, an author their own held ones too, staff
 * everything (removed included).
 */
export function visibleTo(reader: Reader): SQL | undefined {
  if (reader?.isStaff) return undefined;
  if (!reader) return eq(chatMessages.status, 'visible');
  return or(eq(chatMessages.status, 'visible'), and(eq(chatMessages.status, 'held'), eq(chatMessages.userId, reader.userId)));
}

export function canSee(reader: Reader, row: Pick<ChatRow, 'status' | 'userId'>): boolean {
  if (row.status === 'visible' || reader?.isStaff) return true;
  return row.status === 'held' && reader !== null && row.userId === reader.userId;
}

/** The message as the API speaks it, with the figures and tags worked out for this page of rows. */
export function toDiscussionMessage(row: ChatRow, sellerUserId: number | null, context: PageContext): ChatMessage {
  const tags: ChatAuthorTag[] = [];
  if (row.userId !== null) {
    if (row.userId === sellerUserId) tags.push('seller');
    if (context.bidders.has(row.userId)) tags.push('bidder');
    if (context.buyers.has(row.userId)) tags.push('buyer');
    if (context.staff.has(row.userId)) tags.push('staff');
  }
  return {
    ...toChatMessage(row, sellerUserId),
    replyCount: row.parentId === null ? (context.replyCounts.get(row.id) ?? 0) : 0,
    upvotedByMe: context.votedByMe.has(row.id),
    authorTags: tags,
  };
}

export interface PageContext {
  replyCounts: Map<number, number>;
  votedByMe: Set<number>;
  bidders: Set<number>;
  buyers: Set<number>;
  staff: Set<number>;
}

/**
 * Everything the messages of one car need beyond their rows, read in a few statements for the
 * whole page: visible replies per top-level message, the reader's votes, and the authors' tags
 * (from bids on this car, released purchases anywhere, and roles), so tags are never stale.
 */
export async function pageContext(db: Executor, carId: number, rows: readonly ChatRow[], reader: Reader): Promise<PageContext> {
  const ids = rows.map((row) => row.id);
  const topIds = rows.filter((row) => row.parentId === null).map((row) => row.id);
  const authorIds = [...new Set(rows.map((row) => row.userId).filter((id): id is number => id !== null))];
  const none = Promise.resolve([]);
  const [replies, votes, bidderRows, buyerRows, staffRows] = await Promise.all([
    topIds.length
      ? db
          .select({ parentId: chatMessages.parentId, n: count() })
          .from(chatMessages)
          .where(and(inArray(chatMessages.parentId, topIds), eq(chatMessages.status, 'visible')))
          .groupBy(chatMessages.parentId)
      : none,
    reader && ids.length
      ? db
          .select({ messageId: chatVotes.messageId })
          .from(chatVotes)
          .where(and(eq(chatVotes.userId, reader.userId), inArray(chatVotes.messageId, ids)))
      : none,
    authorIds.length
      ? db
          .selectDistinct({ userId: bids.userId })
          .from(bids)
          .where(and(eq(bids.carId, carId), inArray(bids.userId, authorIds)))
      : none,
    authorIds.length
      ? db
          .selectDistinct({ userId: orders.buyerId })
          .from(orders)
          .where(and(eq(orders.status, 'released'), inArray(orders.buyerId, authorIds)))
      : none,
    authorIds.length
      ? db
          .select({ userId: users.id })
          .from(users)
          .where(and(inArray(users.id, authorIds), inArray(users.role, [...STAFF_ROLES])))
      : none,
  ]);
  return {
    replyCounts: new Map((replies as { parentId: number | null; n: number }[]).map((r) => [r.parentId!, Number(r.n)])),
    votedByMe: new Set((votes as { messageId: number }[]).map((v) => v.messageId)),
    bidders: new Set((bidderRows as { userId: number }[]).map((r) => r.userId)),
    buyers: new Set((buyerRows as { userId: number }[]).map((r) => r.userId)),
    staff: new Set((staffRows as { userId: number }[]).map((r) => r.userId)),
  };
}

export async function toDiscussionMessages(db: Executor, carId: number, sellerUserId: number | null, rows: readonly ChatRow[], reader: Reader): Promise<ChatMessage[]> {
  const context = await pageContext(db, carId, rows, reader);
  return rows.map((row) => toDiscussionMessage(row, sellerUserId, context));
}

/** Visible replies to a top-level message: the figure `chat:updated` carries. */
export async function visibleReplyCount(db: Executor, parentId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(chatMessages)
    .where(and(eq(chatMessages.parentId, parentId), eq(chatMessages.status, 'visible')));
  return Number(row?.n ?? 0);
}

/** The database's now less `seconds`: every process compares against the one clock. */
export const nowMinus = (seconds: number) => sql`now() - make_interval(secs => ${seconds})`;
