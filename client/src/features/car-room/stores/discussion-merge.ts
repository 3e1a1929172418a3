import type { ChatMessage, ChatUpdated, CarQuestion } from '../api/car-room-api.ts';

/**
 * Pure merges of a car's discussion: the flat list of messages (top-level ones and their
 * replies, oldest first) and the Seller Q&A built from `GET /api/cars/:id/questions`. Messages
 * now change after they are written (votes, reply counts, a held message approved, a message
 * removed), so a newer copy replaces the one held; each function returns its input itself when
 * nothing changed, so subscribers stay quiet.
 */

/** Messages in the order they were committed (ids are assigned in commit order). */
export function compareMessages(a: ChatMessage, b: ChatMessage): number {
  return a.id - b.id || a.timestamp.localeCompare(b.timestamp);
}

function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  return (
    a.message === b.message &&
    a.status === b.status &&
    a.upvotes === b.upvotes &&
    a.upvotedByMe === b.upvotedByMe &&
    a.replyCount === b.replyCount &&
    a.parentId === b.parentId &&
    a.authorTags.length === b.authorTags.length &&
    a.authorTags.every((tag, i) => b.authorTags[i] === tag)
  );
}

/**
 * The copy to keep of a message heard again. A read (`personal`: the reader's own answer or
 * history) says everything about it for this reader; a push to the whole room cannot know
 * whether this reader upvoted it, so the held `upvotedByMe` stays.
 */
function newerCopy(held: ChatMessage, incoming: ChatMessage, personal: boolean): ChatMessage {
  const next = personal ? incoming : { ...incoming, upvotedByMe: held.upvotedByMe };
  return sameMessage(held, next) ? held : next;
}

/**
 * `existing` with `incoming` merged in by id, oldest first. Removed messages (only staff are
 * ever sent them) leave the list.
 */
export function mergeMessages(existing: readonly ChatMessage[], incoming: readonly ChatMessage[], personal: boolean): ChatMessage[] {
  if (incoming.length === 0) return existing as ChatMessage[];
  const byId = new Map(existing.map((m) => [m.id, m]));
  let changed = false;
  for (const message of incoming) {
    const held = byId.get(message.id);
    if (message.status === 'removed') {
      if (held) {
        byId.delete(message.id);
        changed = true;
      }
      continue;
    }
    const next = held ? newerCopy(held, message, personal) : message;
    if (next !== held) {
      byId.set(message.id, next);
      changed = true;
    }
  }
  if (!changed) return existing as ChatMessage[];
  return [...byId.values()].sort(compareMessages);
}

/** `chat:updated` or a vote's answer: the counts of one message (and `upvotedByMe` when it is the reader's own vote). */
export function withCounts(
  message: ChatMessage,
  counts: Partial<Pick<ChatUpdated, 'upvotes' | 'replyCount'>> & { upvotedByMe?: boolean },
): ChatMessage {
  const upvotes = counts.upvotes ?? message.upvotes;
  const replyCount = counts.replyCount ?? message.replyCount;
  const upvotedByMe = counts.upvotedByMe ?? message.upvotedByMe;
  if (upvotes === message.upvotes && replyCount === message.replyCount && upvotedByMe === message.upvotedByMe) return message;
  return { ...message, upvotes, replyCount, upvotedByMe };
}

/** Applies `change` to the message `id` wherever a list holds it; the same list when nothing changed. */
export function updateMessageIn(list: readonly ChatMessage[], id: number, change: (m: ChatMessage) => ChatMessage): ChatMessage[] {
  const index = list.findIndex((m) => m.id === id);
  if (index < 0) return list as ChatMessage[];
  const next = change(list[index]!);
  if (next === list[index]) return list as ChatMessage[];
  const copy = list.slice();
  copy[index] = next;
  return copy;
}

/** The list without message `id` (its replies stay, shown on their own). */
export function withoutMessage(list: readonly ChatMessage[], id: number): ChatMessage[] {
  if (!list.some((m) => m.id === id)) return list as ChatMessage[];
  return list.filter((m) => m.id !== id);
}

// ── Threads ──────────────────────────────────────────────────────────────────────────────────

export interface Thread {
  message: ChatMessage;
  /** Its replies held, oldest first. */
  replies: ChatMessage[];
  /** A reply whose message is not held (older than the page read, or no longer shown). */
  orphan: boolean;
}

/**
 * The discussion as it is shown: each top-level message with its replies under it, in the order
 * the top-level messages were written. A reply whose message is not here stands on its own.
 */
export function threadsOf(messages: readonly ChatMessage[]): Thread[] {
  const threads: Thread[] = [];
  const byId = new Map<number, Thread>();
  for (const message of messages) {
    if (message.parentId === null) {
      const thread: Thread = { message, replies: [], orphan: false };
      byId.set(message.id, thread);
      threads.push(thread);
    }
  }
  for (const message of messages) {
    if (message.parentId === null) continue;
    const parent = byId.get(message.parentId);
    if (parent) parent.replies.push(message);
    else threads.push({ message, replies: [], orphan: true });
  }
  return threads.sort((a, b) => compareMessages(a.message, b.message));
}

/**
 * How many replies to say a message has: the server's count (visible replies), but never fewer
 * than those on screen that everyone sees (a reply may arrive before the count that includes it).
 */
export function replyCountOf(thread: Thread): number {
  const shown = thread.replies.filter((r) => r.status === 'visible').length;
  return Math.max(thread.message.replyCount, shown);
}

// ── Seller Q&A ───────────────────────────────────────────────────────────────────────────────

const isSellers = (m: ChatMessage) => m.authorTags.includes('seller') || m.role === 'seller';

/** Answered questions first, then newest first (the order `GET /api/cars/:id/questions` answers). */
export function compareQuestions(a: CarQuestion, b: CarQuestion): number {
  const answered = Number(b.answers.length > 0) - Number(a.answers.length > 0);
  return answered || b.question.id - a.question.id;
}

function sortedQuestions(list: CarQuestion[]): CarQuestion[] {
  return list.sort(compareQuestions);
}

/**
 * Messages heard (a push, a post's answer, a history read) merged into the Seller Q&A: a visible
 * top-level question joins it unanswered, a visible reply of the seller to a question held is
 * one of its answers; a newer copy of either replaces the held one.
 */
export function mergeQuestions(questions: readonly CarQuestion[], messages: readonly ChatMessage[]): CarQuestion[] {
  let list = questions as CarQuestion[];
  for (const message of messages) {
    if (message.status !== 'visible') continue;
    if (message.parentId === null) {
      if (message.type !== 'question') continue;
      const index = list.findIndex((q) => q.question.id === message.id);
      if (index < 0) {
        list = sortedQuestions([...list, { question: message, answers: [] }]);
      } else if (!sameMessage(list[index]!.question, message)) {
        list = list.slice();
        list[index] = { ...list[index]!, question: { ...message, upvotedByMe: list[index]!.question.upvotedByMe } };
      }
      continue;
    }
    if (!isSellers(message)) continue;
    const index = list.findIndex((q) => q.question.id === message.parentId);
    if (index < 0) continue;
    const thread = list[index]!;
    const answers = mergeMessages(thread.answers, [message], false);
    if (answers === thread.answers) continue;
    list = list.slice();
    list[index] = { ...thread, answers };
    list = sortedQuestions(list);
  }
  return list;
}

/** `change` applied to message `id` as a question or an answer of the Q&A. */
export function updateQuestionMessage(questions: readonly CarQuestion[], id: number, change: (m: ChatMessage) => ChatMessage): CarQuestion[] {
  let changed = false;
  const next = questions.map((thread) => {
    if (thread.question.id === id) {
      const question = change(thread.question);
      if (question === thread.question) return thread;
      changed = true;
      return { ...thread, question };
    }
    const answers = updateMessageIn(thread.answers, id, change);
    if (answers === thread.answers) return thread;
    changed = true;
    return { ...thread, answers };
  });
  return changed ? next : (questions as CarQuestion[]);
}

/** The Q&A without message `id`: a question leaves with its answers, an answer leaves its question. */
export function withoutQuestionMessage(questions: readonly CarQuestion[], id: number): CarQuestion[] {
  if (questions.some((q) => q.question.id === id)) return questions.filter((q) => q.question.id !== id);
  let changed = false;
  const next = questions.map((thread) => {
    const answers = withoutMessage(thread.answers, id);
    if (answers === thread.answers) return thread;
    changed = true;
    return { ...thread, answers };
  });
  return changed ? sortedQuestions(next) : (questions as CarQuestion[]);
}
