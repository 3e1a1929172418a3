import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { users } from '../../../db/schema/index.ts';
import { notFound } from '../lib/errors.ts';

/** The account as its owner sees it: never a password hash or a token. */
export interface PublicUser {
  id: number;
  name: string;
  email: string;
  email_verified: boolean;
  avatar: string | null;
  bio: string | null;
  phone: string | null;
  location: string | null;
  created_at: string;
}

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
  };
}

/** The fields a user may change about themselves; anything else is refused before it gets here. */
export interface ProfileChanges {
  name?: string;
  avatar?: string | null;
  bio?: string | null;
  phone?: string | null;
  location?: string | null;
}

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
