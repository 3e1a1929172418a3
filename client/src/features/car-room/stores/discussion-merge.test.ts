import { describe, expect, it } from 'vitest';
import type { CarQuestion, ChatMessage } from '../api/car-room-api.ts';
import {
  applyChatUpdated,
  applyLatestMessages,
  applyMessageRemoved,
  applyMessages,
  applyQuestions,
  applyVote,
  emptyRoom,
} from './car-room-merge.ts';
import { mergeMessages, mergeQuestions, replyCountOf, threadsOf } from './discussion-merge.ts';
import { sampleMessage } from './message-fixture.ts';

const CAR = 7;
const SELLER = 40;
const message = (id: number, overrides: Partial<ChatMessage> = {}) => sampleMessage(id, CAR, overrides);
const question = (id: number, overrides: Partial<ChatMessage> = {}) => message(id, { type: 'question', ...overrides });
const answer = (id: number, parentId: number, overrides: Partial<ChatMessage> = {}) =>
  message(id, { parentId, userId: SELLER, userName: 'Sam', role: 'seller', authorTags: ['seller'], ...overrides });
const qa = (q: ChatMessage, answers: ChatMessage[] = []): CarQuestion => ({ question: q, answers });

describe('mergeMessages', () => {
  it('replaces a held copy with a newer one, keeping the reader’s own vote when the copy is a push to the room', () => {
    const held = message(1, { upvotes: 2, upvotedByMe: true });
    const pushed = message(1, { upvotes: 3, upvotedByMe: false });
    expect(mergeMessages([held], [pushed], false)[0]).toEqual({ ...pushed, upvotedByMe: true });
    // A read of the reader's own speaks for them.
    expect(mergeMessages([held], [pushed], true)[0]).toEqual(pushed);
  });

  it('returns the same list when the copy says nothing new, and drops removed messages', () => {
    const list = [message(1), message(2)];
    expect(mergeMessages(list, [message(1)], false)).toBe(list);
    expect(mergeMessages(list, [message(2, { status: 'removed' })], true).map((m) => m.id)).toEqual([1]);
    expect(mergeMessages(list, [message(3, { status: 'removed' })], true)).toBe(list);
  });

  it('a held message approved later arrives as a visible copy of the same id', () => {
    const list = mergeMessages([], [message(5, { status: 'held' })], true);
    const approved = mergeMessages(list, [message(5)], false);
    expect(approved).toHaveLength(1);
    expect(approved[0]!.status).toBe('visible');
  });
});

describe('threads', () => {
  it('puts each reply under its message, in order, and a reply without its message on its own', () => {
    const threads = threadsOf([message(1), message(2), message(3, { parentId: 1 }), message(4, { parentId: 99 }), message(5, { parentId: 1 })]);
    expect(threads.map((t) => [t.message.id, t.replies.map((r) => r.id), t.orphan])).toEqual([
      [1, [3, 5], false],
      [2, [], false],
      [4, [], true],
    ]);
  });

  it('the reply count is the server’s, but never fewer than the visible replies shown', () => {
    const [thread] = threadsOf([message(1, { replyCount: 1 }), message(2, { parentId: 1 }), message(3, { parentId: 1 }), message(4, { parentId: 1, status: 'held' })]);
    expect(replyCountOf(thread!)).toBe(2);
    const [counted] = threadsOf([message(1, { replyCount: 7 })]);
    expect(replyCountOf(counted!)).toBe(7);
  });
});

describe('live figures and removals', () => {
  it('chat:updated sets a message’s counts in the discussion and in the Q&A', () => {
    let room = applyQuestions(emptyRoom(CAR), [qa(question(1))]);
    room = applyMessages(room, [question(1), message(2)], true);
    room = applyChatUpdated(room, { carId: CAR, id: 1, upvotes: 4, replyCount: 2 });
    expect(room.messages[0]).toMatchObject({ upvotes: 4, replyCount: 2 });
    expect(room.questions[0]!.question).toMatchObject({ upvotes: 4, replyCount: 2 });
    expect(applyChatUpdated(room, { carId: CAR, id: 1, upvotes: 4, replyCount: 2 })).toBe(room);
    expect(applyChatUpdated(room, { carId: CAR + 1, id: 2, upvotes: 9, replyCount: 0 })).toBe(room);
  });

  it('the answer to the reader’s vote sets the count and the pressed state; a later push keeps the pressed state', () => {
    let room = applyMessages(emptyRoom(CAR), [message(1, { upvotes: 1 })], true);
    room = applyVote(room, { id: 1, upvotes: 2, upvotedByMe: true });
    expect(room.messages[0]).toMatchObject({ upvotes: 2, upvotedByMe: true });
    room = applyChatUpdated(room, { carId: CAR, id: 1, upvotes: 3, replyCount: 0 });
    expect(room.messages[0]).toMatchObject({ upvotes: 3, upvotedByMe: true });
    room = applyVote(room, { id: 1, upvotes: 2, upvotedByMe: false });
    expect(room.messages[0]).toMatchObject({ upvotes: 2, upvotedByMe: false });
  });

  it('chat:removed takes the message out of the discussion and the Q&A at once', () => {
    let room = applyQuestions(emptyRoom(CAR), [qa(question(1), [answer(3, 1)]), qa(question(2))]);
    room = applyMessages(room, [question(1), question(2), answer(3, 1)], true);
    room = applyMessageRemoved(room, 3);
    expect(room.messages.map((m) => m.id)).toEqual([1, 2]);
    expect(room.questions.map((q) => [q.question.id, q.answers.length])).toEqual([
      [2, 0],
      [1, 0],
    ]);
    room = applyMessageRemoved(room, 2);
    expect(room.questions.map((q) => q.question.id)).toEqual([1]);
    expect(applyMessageRemoved(room, 99)).toBe(room);
  });

  it('the latest page read again drops what it no longer holds within its range, and keeps older and newer messages', () => {
    let room = applyMessages(emptyRoom(CAR), [message(1), message(2), message(3), message(4), message(5)], true);
    room = applyLatestMessages(room, [message(2), message(4, { upvotes: 6 })]);
    expect(room.messages.map((m) => m.id)).toEqual([1, 2, 4, 5]);
    expect(room.messages.find((m) => m.id === 4)!.upvotes).toBe(6);
  });
});

describe('Seller Q&A', () => {
  it('a new visible question joins unanswered; the seller’s reply answers it and moves it first', () => {
    let questions = mergeQuestions([qa(question(1), [answer(2, 1)])], [question(5)]);
    expect(questions.map((q) => q.question.id)).toEqual([1, 5]);
    questions = mergeQuestions(questions, [answer(6, 5)]);
    // Answered first, then newest first.
    expect(questions.map((q) => [q.question.id, q.answers.map((a) => a.id)])).toEqual([
      [5, [6]],
      [1, [2]],
    ]);
  });

  it('ignores plain messages, replies of others, held messages and answers to unknown questions', () => {
    const start = [qa(question(1))];
    const next = mergeQuestions(start, [
      message(2),
      message(3, { parentId: 1 }),
      question(4, { status: 'held' }),
      answer(5, 99),
      answer(6, 1, { status: 'held' }),
    ]);
    expect(next).toBe(start);
  });

  it('live messages feed the Q&A once it is loaded, and a read merges what arrived before it', () => {
    let room = applyMessages(emptyRoom(CAR), [question(1)]);
    expect(room.questions).toEqual([]);
    room = applyMessages(room, [answer(2, 1)]);
    // The read was answered before the answer was written: the answer already heard joins it.
    room = applyQuestions(room, [qa(question(1))]);
    expect(room.questions.map((q) => [q.question.id, q.answers.map((a) => a.id)])).toEqual([[1, [2]]]);
    room = applyMessages(room, [question(3)]);
    expect(room.questions.map((q) => q.question.id)).toEqual([1, 3]);
  });
});
