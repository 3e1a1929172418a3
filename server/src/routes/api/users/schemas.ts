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

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const ProfileChangesSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
    avatar: Type.Optional(nullable(Type.String({ maxLength: 500, pattern: '^(https?://\\S+|/\\S*)?$' }))),
    bio: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
    phone: Type.Optional(nullable(Type.String({ maxLength: 30, pattern: '^[0-9+()\\-. ]*$' }))),
    location: Type.Optional(nullable(Type.String({ maxLength: 100 }))),
  },
  { additionalProperties: false, title: 'ProfileChanges' },
);
