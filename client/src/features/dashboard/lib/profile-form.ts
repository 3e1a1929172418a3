import { PROFILE_LIMITS, ProfileChangesSchema, type ProfileChanges } from '@common/schemas/auth.ts';
import type { PublicUser } from '@common/schemas/users.ts';
import { issuesByField } from '@common/validation.ts';
import { detailsByField } from '../../../lib/field-errors.ts';

/**
 * The Edit Profile form: its values, client-side checks mirroring the server's rules (so most
 * mistakes are caught with a friendly message before a round trip), the minimal PUT body, and
 * the mapping of a 400 `VALIDATION_FAILED` `details` list back onto the fields.
 */

/** The fields, in the form's order; the form holds each as text. */
export const PROFILE_FIELDS = ['name', 'avatar', 'bio', 'phone', 'location'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileFormValues = Record<ProfileField, string>;
export type ProfileErrors = Partial<Record<ProfileField, string>>;

/** The body of `PUT /api/users/profile`: only these fields, `null` clears an optional one. */
export type { ProfileChanges };
export { PROFILE_LIMITS };

type EditableUser = Pick<PublicUser, 'name' | 'avatar' | 'bio' | 'phone' | 'location'>;

export function profileFormValues(user: EditableUser): ProfileFormValues {
  return {
    name: user.name,
    avatar: user.avatar ?? '',
    bio: user.bio ?? '',
    phone: user.phone ?? '',
    location: user.location ?? '',
  };
}

/** Every field as the server would read it: trimmed, an empty optional field as `null`. */
function trimmed(values: ProfileFormValues): Required<ProfileChanges> {
  const text = (field: Exclude<ProfileField, 'name'>) => values[field].trim() || null;
  return { name: values.name.trim(), avatar: text('avatar'), bio: text('bio'), phone: text('phone'), location: text('location') };
}

/** The form is checked against the schema `PUT /api/users/profile` is validated with. */
export function validateProfile(values: ProfileFormValues): ProfileErrors {
  return issuesByField(ProfileChangesSchema, trimmed(values));
}

/** Only what changed; text is trimmed and an emptied optional field is sent as `null`. */
export function profileChanges(values: ProfileFormValues, user: EditableUser): ProfileChanges {
  const next = trimmed(values);
  const changes: ProfileChanges = {};
  if (next.name !== user.name) changes.name = next.name;
  for (const field of ['avatar', 'bio', 'phone', 'location'] as const) {
    if (next[field] !== (user[field] ?? null)) changes[field] = next[field];
  }
  return changes;
}

/**
 * Splits a `details` list (`[{field, message}]`) into messages per form field and the rest
 * (fields the form does not have). Anything that is not such a list gives nothing.
 */
export function errorsFromDetails(details: unknown): { fields: ProfileErrors; other: string[] } {
  return detailsByField(details, PROFILE_FIELDS);
}

/** "2025-03-14T09:00:00.000Z" → "March 2025"; null for an unreadable date. */
export function memberSince(createdAt: string): string | null {
  if (!createdAt) return null;
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}
