import { api } from '../../../lib/api-client.ts';
import type { ProfileChanges } from '../lib/profile-form.ts';

/** `GET /api/users/profile`: the signed-in user (contract `User`). */
export function getProfile(signal?: AbortSignal): Promise<unknown> {
  return api.get<unknown>('/api/users/profile', { signal });
}

/** `PUT /api/users/profile` with only the editable fields; resolves to the updated `User`. */
export function updateProfile(changes: ProfileChanges): Promise<unknown> {
  return api.put<unknown>('/api/users/profile', changes);
}
