import { Type, type TString } from 'typebox';
import { notFound } from '../../lib/errors.ts';
import { IsoDateTime } from '../../lib/schemas.ts';
import { parseId } from '@common/ids.ts';

export const ChatMessageSchema = Type.Object(
  {
    id: Type.Integer(),
    carId: Type.Integer(),
    userId: Type.Union([Type.Integer(), Type.Null()]),
    userName: Type.String(),
    message: Type.String({ description: 'Plain text, returned exactly as posted; never HTML' }),
    timestamp: IsoDateTime,
    type: Type.String({ enum: ['message', 'question', 'bid'] }),
    role: Type.Union([Type.Literal('seller'), Type.Null()], { description: "'seller' when the car's seller wrote it" }),
  },
  { title: 'ChatMessage' },
);

export const BidSchema = Type.Object(
  {
    id: Type.Integer(),
    carId: Type.Integer(),
    userId: Type.Integer(),
    userName: Type.String(),
    amount: Type.Integer({ description: 'Whole US dollars' }),
    timestamp: IsoDateTime,
  },
  { title: 'Bid' },
);

export const NotificationSchema = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String({ enum: ['bid', 'message', 'system'] }),
    title: Type.String(),
    message: Type.String(),
    timestamp: IsoDateTime,
    read: Type.Boolean(),
    carId: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'Notification' },
);

export const CarSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    make: Type.String(),
    model: Type.String(),
    year: Type.Integer(),
    price: Type.Integer(),
    primaryImage: Type.Union([Type.String(), Type.Null()]),
    currentBids: Type.Integer(),
    highestBid: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'CarSummary' },
);

/** Path ids arrive as text; services answer 404 for anything that is not a positive integer. */
export const IdParam = <N extends string>(name: N) => Type.Object({ [name]: Type.String({ maxLength: 20 }) } as Record<N, TString>);

/** The number a path id names; anything that is not a positive integer is a 404 with `message`. */
export function pathId(raw: string, message: string): number {
  const id = parseId(raw);
  if (id === null) throw notFound(message);
  return id;
}
