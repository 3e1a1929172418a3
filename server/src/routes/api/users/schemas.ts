import { Type } from 'typebox';
import { IsoDateTime } from '../../../lib/schemas.ts';

export const UserSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    email_verified: Type.Boolean(),
    avatar: Type.Union([Type.String(), Type.Null()]),
    bio: Type.Union([Type.String(), Type.Null()]),
    phone: Type.Union([Type.String(), Type.Null()]),
    location: Type.Union([Type.String(), Type.Null()]),
    created_at: IsoDateTime,
  },
  { title: 'User' },
);
