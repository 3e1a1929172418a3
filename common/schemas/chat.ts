import { Type, type Static } from 'typebox';
import {
  CHAT_AUTHOR_TAGS,
  CHAT_HELD_BY,
  CHAT_MESSAGE_STATUSES,
  CHAT_QUEUE_FILTERS,
  CHAT_REPORT_NOTE_MAX_LENGTH,
  CHAT_REPORT_REASONS,
  MUTE_HOURS,
} from '../discussion.ts';
import { REASON_MAX_LENGTH } from '../back-office.ts';
import { CHAT_MESSAGE_TYPES } from '../enums.ts';
import { IsoDateTime, Nullable, StringEnum, Text, messages, strict } from './kit.ts';

/** What the discussion routes answer; `chat:message` pushes the same message. */

export const ChatMessageSchema = Type.Object(
  {
    id: Type.Integer(),
    carId: Type.Integer(),
    userId: Type.Union([Type.Integer(), Type.Null()]),
    userName: Type.String(),
    message: Type.String({ description: 'Plain text, returned exactly as posted; never HTML' }),
    timestamp: IsoDateTime,
    type: StringEnum(CHAT_MESSAGE_TYPES),
    role: Type.Union([Type.Literal('seller'), Type.Null()], { description: "'seller' when the car's seller wrote it" }),
    parentId: Nullable(Type.Integer({ description: 'The top-level message of the same car this replies to; null for a top-level message' })),
    replyCount: Type.Integer({ description: 'Visible replies to a top-level message (0 for a reply)' }),
    upvotes: Type.Integer(),
    upvotedByMe: Type.Boolean({ description: 'False when signed out' }),
    authorTags: Type.Array(StringEnum(CHAT_AUTHOR_TAGS), {
      description: "Computed when read: seller (the car's seller), bidder (has a bid on this car), buyer (has a released purchase), staff",
    }),
    status: StringEnum(CHAT_MESSAGE_STATUSES, {
      description: 'visible; held (only its author and staff see it, until an operator approves it); removed (staff only)',
    }),
  },
  { title: 'ChatMessage' },
);
export type ChatMessage = Static<typeof ChatMessageSchema>;

/** `GET /api/chat/car/:carId`: oldest first, replies included (thread them by `parentId`). */
export const ChatPageSchema = Type.Object({ messages: Type.Array(ChatMessageSchema) });
export type ChatPage = Static<typeof ChatPageSchema>;

/** `GET /api/chat/user`: a car the user discussed. */
export const DiscussionSchema = Type.Object({
  car: Type.Object({ id: Type.Integer(), year: Type.Integer(), make: Type.String(), model: Type.String(), primaryImage: Type.Union([Type.String(), Type.Null()]) }),
  messageCount: Type.Integer(),
  lastMessageAt: IsoDateTime,
});
export type Discussion = Static<typeof DiscussionSchema>;

export const DiscussionsSchema = Type.Object({ discussions: Type.Array(DiscussionSchema) });
export type Discussions = Static<typeof DiscussionsSchema>;

// ── Votes and reports ────────────────────────────────────────────────────────────────────────

/** `POST` and `DELETE /api/chat/:id/upvote`: the message's count after the vote. */
export const ChatVoteSchema = Type.Object({ id: Type.Integer(), upvotes: Type.Integer(), upvotedByMe: Type.Boolean() });
export type ChatVote = Static<typeof ChatVoteSchema>;

export const ReportChatSchema = Type.Object(
  {
    reason: StringEnum(CHAT_REPORT_REASONS, { description: 'off_platform: contact details or payment outside escrow' }),
    note: Type.Optional(
      Type.String({
        maxLength: CHAT_REPORT_NOTE_MAX_LENGTH,
        description: 'What the operator should know',
        ...messages({ maxLength: `A note is at most ${CHAT_REPORT_NOTE_MAX_LENGTH} characters` }),
      }),
    ),
  },
  strict,
);
export type ReportChat = Static<typeof ReportChatSchema>;

/** `POST /api/chat/:id/report`: the report recorded. */
export const ChatReportedSchema = Type.Object({ id: Type.Integer({ description: "The report's id" }) });
export type ChatReported = Static<typeof ChatReportedSchema>;

// ── Seller Q&A ───────────────────────────────────────────────────────────────────────────────

export const CarQuestionSchema = Type.Object(
  {
    question: ChatMessageSchema,
    answers: Type.Array(ChatMessageSchema, { description: "The seller's visible replies, oldest first" }),
  },
  { title: 'CarQuestion' },
);
export type CarQuestion = Static<typeof CarQuestionSchema>;

/** `GET /api/cars/:id/questions`: answered first, then newest first. */
export const CarQuestionsSchema = Type.Object({ questions: Type.Array(CarQuestionSchema) });
export type CarQuestions = Static<typeof CarQuestionsSchema>;

// ── Moderation (back office) ─────────────────────────────────────────────────────────────────

export const ChatQueueQuerySchema = Type.Object(
  { status: Type.Optional(StringEnum(CHAT_QUEUE_FILTERS, { description: 'held or reported messages; both when left out' })) },
  strict,
);
export type ChatQueueQuery = Static<typeof ChatQueueQuerySchema>;

export const ChatReportEntrySchema = Type.Object({
  reason: StringEnum(CHAT_REPORT_REASONS),
  note: Nullable(Type.String()),
  at: IsoDateTime,
});
export type ChatReportEntry = Static<typeof ChatReportEntrySchema>;

export const QueuedChatMessageSchema = Type.Object(
  {
    ...ChatMessageSchema.properties,
    carTitle: Type.String({ description: 'The car the message is about, as its page names it: year, make and model' }),
    heldBy: Nullable(StringEnum(CHAT_HELD_BY, { description: 'guard: held when posted; reports: held by readers; null: visible with reports' })),
    reports: Type.Array(ChatReportEntrySchema, { description: 'Oldest first' }),
  },
  { title: 'QueuedChatMessage' },
);
export type QueuedChatMessage = Static<typeof QueuedChatMessageSchema>;

/** `GET /api/admin/chat`: oldest first. */
export const ChatQueueSchema = Type.Object({ messages: Type.Array(QueuedChatMessageSchema) });
export type ChatQueue = Static<typeof ChatQueueSchema>;

const ModerationReason = Text(1, REASON_MAX_LENGTH, {
  description: 'Why; kept in the audit log',
  ...messages({ required: 'Give a reason', default: 'Give a reason', maxLength: `A reason is at most ${REASON_MAX_LENGTH} characters` }),
});

export const MuteUserSchema = Type.Object(
  {
    reason: ModerationReason,
    hours: Type.Integer({
      minimum: MUTE_HOURS.min,
      maximum: MUTE_HOURS.max,
      description: 'How long the user cannot post, reply, vote or report',
      ...messages({ default: `Mute for ${MUTE_HOURS.min} to ${MUTE_HOURS.max} hours` }),
    }),
  },
  strict,
);
export type MuteUser = Static<typeof MuteUserSchema>;

export const UnmuteUserSchema = Type.Object({ reason: ModerationReason }, strict);
export type UnmuteUser = Static<typeof UnmuteUserSchema>;

/** `POST /api/admin/users/:id/mute` and `/unmute`: the user's mute after the change. */
export const UserMuteSchema = Type.Object({
  userId: Type.Integer(),
  mutedUntil: Nullable(IsoDateTime),
});
export type UserMute = Static<typeof UserMuteSchema>;

// ── Pushes ───────────────────────────────────────────────────────────────────────────────────

/** `chat:updated`: a message's live figures after a vote or a reply. */
export const ChatUpdatedSchema = Type.Object({ carId: Type.Integer(), id: Type.Integer(), upvotes: Type.Integer(), replyCount: Type.Integer() });
export type ChatUpdated = Static<typeof ChatUpdatedSchema>;

/** `chat:removed`: a message left the room (held by reports, or removed by an operator). */
export const ChatRemovedSchema = Type.Object({ carId: Type.Integer(), id: Type.Integer() });
export type ChatRemoved = Static<typeof ChatRemovedSchema>;
