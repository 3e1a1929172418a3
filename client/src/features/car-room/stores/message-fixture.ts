import type { ChatMessage } from '../api/car-room-api.ts';

/** A visible top-level message of car `carId` for the store tests; `overrides` change any field. */
export function sampleMessage(id: number, carId: number, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    carId,
    role: null,
    userId: 1,
    userName: 'Ann',
    message: `message ${id}`,
    timestamp: new Date(Date.UTC(2025, 0, 1, 12, 0, id)).toISOString(),
    type: 'message',
    parentId: null,
    replyCount: 0,
    upvotes: 0,
    upvotedByMe: false,
    authorTags: [],
    status: 'visible',
    ...overrides,
  };
}
