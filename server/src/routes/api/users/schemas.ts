import { Type } from 'typebox';
import { USER_ROLES } from '@common/back-office.ts';
import { IsoDateTime, StringEnum } from '../../../lib/schemas.ts';

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
    role: StringEnum(USER_ROLES),
    totp_enabled: Type.Boolean({ description: 'Whether sign-in asks for a code from an authenticator app' }),
  },
  { title: 'User' },
);
