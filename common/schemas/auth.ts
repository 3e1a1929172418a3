import { Type, type Static } from 'typebox';
import { RECOVERY_CODE_COUNT } from '../back-office.ts';
import { Nullable, Text, messages, strict } from './kit.ts';
import { UserSchema } from './users.ts';

/** The sign-in, registration and password-reset bodies and answers. Password strength: `common/password-rules.ts`. */

export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
/** Far above any password the rules allow: longer bodies are refused before any hashing. */
const PASSWORD_FIELD_MAX = 1_000;
const TOKEN_MAX = 200;

export const Email = Type.String({
  format: 'email',
  maxLength: EMAIL_MAX_LENGTH,
  description: 'Case-insensitive',
  ...messages({ required: 'Email is required', default: 'Please enter a valid email address' }),
});
const Password = Type.String({ maxLength: PASSWORD_FIELD_MAX, ...messages({ required: 'Password is required' }) });

export const RegisterSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, ...messages({ required: 'Name is required', minLength: 'Name is required' }) }),
    email: Email,
    password: Password,
  },
  strict,
);
export type Registration = Static<typeof RegisterSchema>;
/** A code from the authenticator app (6 digits) or a recovery code. */
export const TOTP_CODE_MAX_LENGTH = 32;
const TotpCode = Type.String({
  minLength: 1,
  maxLength: TOTP_CODE_MAX_LENGTH,
  ...messages({ required: 'Enter the code from your authenticator app', default: 'Enter the code from your authenticator app' }),
});

export const LoginSchema = Type.Object(
  {
    email: Email,
    password: Password,
    totp: Type.Optional(
      Type.String({ maxLength: TOTP_CODE_MAX_LENGTH, description: 'Required once two-factor sign-in is on: a current code or an unused recovery code' }),
    ),
  },
  strict,
);
export type Credentials = Static<typeof LoginSchema>;
/** `POST /api/auth/totp/confirm`: turns two-factor sign-in on. */
export const TotpConfirmSchema = Type.Object({ code: TotpCode }, strict);
export const EmailOnlySchema = Type.Object({ email: Email }, strict);
export const VerifyEmailSchema = Type.Object({ token: Type.Optional(Type.String({ maxLength: TOKEN_MAX })) }, strict);
export const RefreshSchema = Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: TOKEN_MAX }) }, strict);
export const LogoutSchema = Type.Optional(Type.Object({ refreshToken: Type.Optional(Type.String({ maxLength: TOKEN_MAX })) }, strict));
export const ResetPasswordSchema = Type.Object(
  { token: Type.Optional(Type.String({ maxLength: TOKEN_MAX })), newPassword: Type.Optional(Type.String({ maxLength: PASSWORD_FIELD_MAX })) },
  strict,
);

/** `PUT /api/users/profile`: every field optional; null clears it. */
export const PROFILE_LIMITS = { name: NAME_MAX_LENGTH, avatar: 500, bio: 500, phone: 30, location: 100 } as const;

const optionalText = (max: number, label: string) =>
  Type.Optional(Nullable(Type.String({ maxLength: max, ...messages({ maxLength: `${label} must be at most ${max} characters` }) })));

export const ProfileChangesSchema = Type.Object(
  {
    name: Type.Optional(Text(1, PROFILE_LIMITS.name, messages({ default: 'Please enter your name', maxLength: `Name must be at most ${PROFILE_LIMITS.name} characters` }))),
    avatar: Type.Optional(
      Nullable(
        Type.String({
          maxLength: PROFILE_LIMITS.avatar,
          // A site-relative path or a web address; never protocol-relative (`//host`).
          pattern: '^(https?://\\S+|/(?!/)\\S*)?$',
          ...messages({
            pattern: 'Avatar must be a web address starting with http:// or https://',
            maxLength: `Avatar address must be at most ${PROFILE_LIMITS.avatar} characters`,
          }),
        }),
      ),
    ),
    bio: optionalText(PROFILE_LIMITS.bio, 'Bio'),
    phone: Type.Optional(
      Nullable(
        Type.String({
          maxLength: PROFILE_LIMITS.phone,
          pattern: '^[0-9+()\\-. ]*$',
          ...messages({ pattern: 'Phone may contain only digits, spaces and + ( ) - .', maxLength: `Phone must be at most ${PROFILE_LIMITS.phone} characters` }),
        }),
      ),
    ),
    location: optionalText(PROFILE_LIMITS.location, 'Location'),
  },
  { ...strict, title: 'ProfileChanges' },
);
export type ProfileChanges = Static<typeof ProfileChangesSchema>;

// ── Answers ──────────────────────────────────────────────────────────────────────────────────

/** What registration, the emailed links and sign-out answer: a sentence to show. */
export const MessageResultSchema = Type.Object({ message: Type.String() });
export type MessageResult = Static<typeof MessageResultSchema>;

const tokenFields = { accessToken: Type.String(), refreshToken: Type.String() };

/** `POST /api/auth/refresh-token`: the new pair (the old refresh token is spent). */
export const SessionTokensSchema = Type.Object(tokenFields);
export type SessionTokens = Static<typeof SessionTokensSchema>;

/** `POST /api/auth/login`. */
export const LoginResultSchema = Type.Object({ ...tokenFields, user: UserSchema });
export type LoginResult = Static<typeof LoginResultSchema>;

/** `POST /api/auth/verify-email`. */
export const VerifyEmailResultSchema = Type.Object({ message: Type.String(), user: UserSchema });
export type VerifyEmailResult = Static<typeof VerifyEmailResultSchema>;

/** Two-factor enrolment, step one: a new secret (base32) and its `otpauth://` address for the QR code. */
export const TotpSetupSchema = Type.Object({ secret: Type.String(), otpauthUrl: Type.String() });
export type TotpSetup = Static<typeof TotpSetupSchema>;

/** Step two: the recovery codes, shown once. */
export const RecoveryCodesSchema = Type.Object({ recoveryCodes: Type.Array(Type.String(), { minItems: RECOVERY_CODE_COUNT, maxItems: RECOVERY_CODE_COUNT }) });
export type RecoveryCodes = Static<typeof RecoveryCodesSchema>;
