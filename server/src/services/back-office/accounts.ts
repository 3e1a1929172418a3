import { and, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../../../../db/client.ts';
import { cars, sellers, users } from '../../../../db/schema/index.ts';
import { isStaff, type AuditAction, type UserRole } from '@common/back-office.ts';
import { carStatusesFor, type CarAction } from '@common/car-lifecycle.ts';
import type { AdminUser } from '@common/schemas/admin.ts';
import type { Clock } from '../../lib/clock.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { recordAudit, type AuditRecord } from '../audit.ts';
import { endAllSessions } from '../auth.ts';
import { moveCar } from '../car-transitions.ts';
import { auditActor, type Staff } from './staff.ts';
import { ErrorCode } from '@common/error-codes.ts';

const SEARCH_LIMIT = 100;

type UserRow = typeof users.$inferSelect;

/** What happened, for publishing once the transaction has committed. */
interface AccountChange {
  user: AdminUser;
  endedSessions: { id: string }[];
  changedCars: { id: number; status: (typeof cars.$inferSelect)['status'] }[];
}

/** What one account move did inside its transaction: the row after it, and what the audit says. */
interface AccountMove extends Omit<AccountChange, 'user'> {
  updated: UserRow;
  audit: Pick<AuditRecord, 'before' | 'after'> & { action: Extract<AuditAction, `user.${string}`> };
}

/**
 * Accounts in the console: search, suspend and unsuspend, verify a seller, change a role. Each
 * write locks the user's row, checks, changes, and records its audit entry in one transaction;
 * sessions ended by it are announced after the commit (sockets close at once).
 */
export class AccountsAdmin {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  async search(text: string | undefined): Promise<AdminUser[]> {
    const query = text?.trim();
    const pattern = query ? `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const rows = await this.db
      .select({ user: users, sellerVerified: sellers.verified })
      .from(users)
      .leftJoin(sellers, eq(sellers.userId, users.id))
      .where(pattern ? or(ilike(users.email, pattern), ilike(users.name, pattern), /^\d{1,9}$/.test(query!) ? eq(users.id, Number(query)) : undefined) : undefined)
      .orderBy(users.id)
      .limit(SEARCH_LIMIT);
    return rows.map((r) => toAdminUser(r.user, r.sellerVerified));
  }

  /** Signs the user out everywhere and takes their live listings off the market. */
  async suspend(staff: Staff, userId: number, reason: string): Promise<AdminUser> {
    return this.change(staff, userId, reason, async (tx, user, now) => {
      if (user.id === staff.userId) throw conflict(ErrorCode.NOT_ALLOWED_ON_SELF, 'You cannot suspend your own account');
      if (isStaff(user.role) && staff.role !== 'admin') throw forbidden(ErrorCode.NOT_ALLOWED, 'Only an admin can suspend an operator or admin');
      if (user.suspendedAt) throw conflict(ErrorCode.ALREADY_SUSPENDED);
      const [updated] = await tx.update(users).set({ suspendedAt: now, updatedAt: now }).where(eq(users.id, user.id)).returning();
      const endedSessions = await endAllSessions(tx, user.id, 'suspended', now);
      const changedCars = await moveSellersCars(tx, user.id, 'suspend', inArray(cars.status, carStatusesFor('suspend')), now);
      return {
        updated: updated!,
        endedSessions,
        changedCars,
        audit: {
          action: 'user.suspend',
          before: { status: 'active' },
          after: { status: 'suspended', sessionsEnded: endedSessions.length, listingsHidden: changedCars.map((c) => c.id) },
        },
      };
    });
  }

  /** Lets the user sign in again and puts back the listings the suspension took down. */
  async unsuspend(staff: Staff, userId: number, reason: string): Promise<AdminUser> {
    return this.change(staff, userId, reason, async (tx, user, now) => {
      if (!user.suspendedAt) throw conflict(ErrorCode.NOT_SUSPENDED);
      const [updated] = await tx.update(users).set({ suspendedAt: null, updatedAt: now }).where(eq(users.id, user.id)).returning();
      const changedCars = await moveSellersCars(tx, user.id, 'unsuspend', and(eq(cars.status, 'hidden'), eq(cars.hiddenBy, 'suspension'))!, now);
      return {
        updated: updated!,
        endedSessions: [],
        changedCars,
        audit: { action: 'user.unsuspend', before: { status: 'suspended' }, after: { status: 'active', listingsRestored: changedCars.map((c) => c.id) } },
      };
    });
  }

  /** The "Verified seller" badge on every listing of the user's seller profile. */
  async verifySeller(staff: Staff, userId: number, reason: string): Promise<AdminUser> {
    return this.change(staff, userId, reason, async (tx, user) => {
      const [seller] = await tx.select().from(sellers).where(eq(sellers.userId, user.id)).for('no key update');
      if (!seller) throw conflict(ErrorCode.NOT_A_SELLER);
      if (seller.verified) throw conflict(ErrorCode.ALREADY_VERIFIED);
      await tx.update(sellers).set({ verified: true }).where(eq(sellers.id, seller.id));
      const listed = await tx.select({ id: cars.id, status: cars.status }).from(cars).where(eq(cars.sellerId, seller.id));
      return {
        updated: user,
        endedSessions: [],
        changedCars: listed,
        audit: { action: 'user.verify-seller', before: { sellerVerified: false }, after: { sellerVerified: true, sellerId: seller.id } },
      };
    });
  }

  /**
   * Admins only (the route's guard), or the command line (`npm run operator`, which makes the
   * first admin). The user's sessions end: their next sign-in carries the new role.
   */
  async changeRole(actor: Staff | 'cli', userId: number, role: UserRole, reason: string): Promise<AdminUser> {
    return this.change(actor, userId, reason, async (tx, user, now) => {
      if (actor !== 'cli' && user.id === actor.userId) throw conflict(ErrorCode.NOT_ALLOWED_ON_SELF, 'You cannot change your own role; ask another admin');
      if (user.role === role) throw conflict(ErrorCode.ROLE_UNCHANGED, `This account is already ${role === 'admin' ? 'an' : 'a'} ${role}`);
      const [updated] = await tx.update(users).set({ role, updatedAt: now }).where(eq(users.id, user.id)).returning();
      const endedSessions = await endAllSessions(tx, user.id, 'role-changed', now);
      return { updated: updated!, endedSessions, changedCars: [], audit: { action: 'user.role', before: { role: user.role }, after: { role } } };
    });
  }

  private async change(
    actor: Staff | 'cli',
    userId: number,
    reason: string,
    apply: (tx: Transaction, user: UserRow, now: Date) => Promise<AccountMove>,
  ): Promise<AdminUser> {
    const change = await this.db.transaction(async (tx): Promise<AccountChange> => {
      const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('no key update');
      if (!user) throw notFound('User not found');
      const now = this.clock.now();
      const result = await apply(tx, user, now);
      await recordAudit(tx, { actor: auditActor(actor), targetType: 'user', targetId: user.id, reason, ...result.audit }, now);
      const [seller] = await tx.select({ verified: sellers.verified }).from(sellers).where(eq(sellers.userId, user.id));
      return { user: toAdminUser(result.updated, seller?.verified ?? null), endedSessions: result.endedSessions, changedCars: result.changedCars };
    });
    for (const session of change.endedSessions) this.events.publish('session.revoked', { sessionId: session.id, userId, reason: 'account-changed' });
    for (const car of change.changedCars) {
      this.events.publish('car.status', { carId: car.id, status: car.status });
      this.events.publish('listing.changed', { carId: car.id });
    }
    return change.user;
  }
}

function sellerIdsOf(tx: Transaction, userId: number) {
  return tx.select({ id: sellers.id }).from(sellers).where(eq(sellers.userId, userId));
}

/** Moves the user's listings that `which` picks (locked, in id order) through the car lifecycle. */
async function moveSellersCars(tx: Transaction, userId: number, action: Extract<CarAction, 'suspend' | 'unsuspend'>, which: SQL, now: Date): Promise<AccountChange['changedCars']> {
  const listed = await tx
    .select({ id: cars.id, status: cars.status, hiddenFromStatus: cars.hiddenFromStatus, hiddenBy: cars.hiddenBy })
    .from(cars)
    .where(and(inArray(cars.sellerId, sellerIdsOf(tx, userId)), which))
    .orderBy(cars.id)
    .for('no key update');
  const moved: AccountChange['changedCars'] = [];
  for (const car of listed) {
    const { id, status } = await moveCar(tx, car, action, 'operator', { updatedAt: now });
    moved.push({ id, status });
  }
  return moved;
}

export function toAdminUser(row: UserRow, sellerVerified: boolean | null): AdminUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.suspendedAt ? 'suspended' : 'active',
    createdAt: row.createdAt.toISOString(),
    sellerVerified: sellerVerified ?? false,
  };
}
