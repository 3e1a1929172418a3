import { detailsByField } from '../../../lib/field-errors.ts';

/**
 * The Edit Profile form: its values, client-side checks mirroring the server's rules (so most
 * mistakes are caught with a friendly message before a round trip), the minimal PUT body, and
 * the mapping of a 400 `VALIDATION_FAILED` `details` list back onto the fields.
 */

export interface ProfileFormValues {
  name: string;
  avatar: string;
  bio: string;
  phone: string;
  location: string;
}

export type ProfileField = keyof ProfileFormValues;
export type ProfileErrors = Partial<Record<ProfileField, string>>;

/** The body of `PUT /api/users/profile`: only these fields, `null` clears an optional one. */
export interface ProfileChanges {
  name?: string;
  avatar?: string | null;
  bio?: string | null;
  phone?: string | null;
  location?: string | null;
}

interface EditableUser {
  name: string;
  avatar: string | null;
  bio: string | null;
  phone: string | null;
  location: string | null;
}

export const PROFILE_LIMITS = { name: 100, avatar: 500, bio: 500, phone: 30, location: 100 } as const;
export const PROFILE_FIELDS: readonly ProfileField[] = ['name', 'avatar', 'bio', 'phone', 'location'];

const length = (text: string) => [...text].length;

export function profileFormValues(user: EditableUser): ProfileFormValues {
  return {
    name: user.name,
    avatar: user.avatar ?? '',
    bio: user.bio ?? '',
    phone: user.phone ?? '',
    location: user.location ?? '',
  };
}

export function validateProfile(values: ProfileFormValues): ProfileErrors {
  const errors: ProfileErrors = {};
  const name = values.name.trim();
  const avatar = values.avatar.trim();
  const phone = values.phone.trim();

  if (!name) errors.name = 'Please enter your name';
  else if (length(name) > PROFILE_LIMITS.name) errors.name = `Name must be at most ${PROFILE_LIMITS.name} characters`;

  if (avatar && !/^(https?:\/\/\S+|\/(?!\/)\S*)$/i.test(avatar)) errors.avatar = 'Avatar must be a web address starting with http:// or https://';
  else if (length(avatar) > PROFILE_LIMITS.avatar) errors.avatar = `Avatar address must be at most ${PROFILE_LIMITS.avatar} characters`;

  if (length(values.bio.trim()) > PROFILE_LIMITS.bio) errors.bio = `Bio must be at most ${PROFILE_LIMITS.bio} characters`;

  if (!/^[0-9+()\-. ]*$/.test(phone)) errors.phone = 'Phone may contain only digits, spaces and + ( ) - .';
  else if (length(phone) > PROFILE_LIMITS.phone) errors.phone = `Phone must be at most ${PROFILE_LIMITS.phone} characters`;

  if (length(values.location.trim()) > PROFILE_LIMITS.location) {
    errors.location = `Location must be at most ${PROFILE_LIMITS.location} characters`;
  }
  return errors;
}

/** Only what changed; text is trimmed and an emptied optional field is sent as `null`. */
export function profileChanges(values: ProfileFormValues, user: EditableUser): ProfileChanges {
  const changes: ProfileChanges = {};
  const name = values.name.trim();
  if (name !== user.name) changes.name = name;
  for (const field of ['avatar', 'bio', 'phone', 'location'] as const) {
    const next = values[field].trim() || null;
    if (next !== (user[field] ?? null)) changes[field] = next;
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
