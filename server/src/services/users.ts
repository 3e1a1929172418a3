import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { users } from '../../../db/schema/index.ts';
import { notFound } from '../lib/errors.ts';
import type { PublicUser } from '@common/schemas/users.ts';
import type { ProfileChanges } from '@common/schemas/auth.ts';

export type { PublicUser } from '@common/schemas/users.ts';

export type UserRow = typeof users.$inferSelect;

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    email_verified: row.emailVerified,
    avatar: row.avatar,
    bio: row.bio,
    phone: row.phone,
    location: row.location,
    created_at: row.createdAt.toISOString(),
    role: row.role,
    totp_enabled: row.totpSecret !== null,
  };
}

/** The fields a user may change about themselves; anything else is refused before it gets here. */
export type { ProfileChanges } from '@common/schemas/auth.ts';

export class UsersService {
  constructor(private readonly db: Database) {}

  async profile(userId: number): Promise<PublicUser> {
    const [row] = await this.db.select().from(users).where(eq(users.id, userId));
    if (!row) throw notFound('User not found');
    return toPublicUser(row);
  }

  async updateProfile(userId: number, changes: ProfileChanges): Promise<PublicUser> {
    const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim());
    const [row] = await this.db
      .update(users)
      .set({
        ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
        ...(changes.avatar !== undefined ? { avatar: blankToNull(changes.avatar) } : {}),
        ...(changes.bio !== undefined ? { bio: blankToNull(changes.bio) } : {}),
        ...(changes.phone !== undefined ? { phone: blankToNull(changes.phone) } : {}),
        ...(changes.location !== undefined ? { location: blankToNull(changes.location) } : {}),
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId))
      .returning();
    if (!row) throw notFound('User not found');
    return toPublicUser(row);
  }
}
