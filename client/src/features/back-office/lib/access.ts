import { isStaff } from '@common/back-office.ts';
import type { SessionUser } from '../../../lib/session-store.ts';

/** The navigation offers the console to staff only (the API refuses everyone else anyway). */
export function canOpenConsole(user: SessionUser | null): boolean {
  return user !== null && isStaff(user.role);
}
