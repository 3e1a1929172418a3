import type { UserRole } from '@common/back-office.ts';
import type { AuditActor } from '../audit.ts';

/** The operator or admin behind a console request (signed in with a second factor). */
export interface Staff {
  userId: number;
  email: string;
  role: UserRole;
}

/** Who the audit log names: the staff member, or the command line. */
export function auditActor(actor: Staff | 'cli'): AuditActor {
  return actor === 'cli' ? 'cli' : { userId: actor.userId, email: actor.email };
}
