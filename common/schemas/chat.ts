import { Type, type Static } from 'typebox';
import { CHAT_MESSAGE_TYPES } from '../enums.ts';
import { IsoDateTime, StringEnum } from './kit.ts';

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
  },
  { title: 'ChatMessage' },
);
export type ChatMessage = Static<typeof ChatMessageSchema>;

/** `GET /api/chat/car/:carId`: oldest first. */
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
