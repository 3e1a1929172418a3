import { eq } from 'drizzle-orm';
import { cars, sellers, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../server/src/lib/passwords.ts';
import type { TestApp } from './app.ts';

export const TEST_PASSWORD = 'Sup3r$ecret!';

export interface SignedInUser {
  id: number;
  email: string;
  name: string;
  accessToken: string;
  refreshToken: string;
  auth: { authorization: string };
}

let counter = 0;
/** One hash of TEST_PASSWORD for every account a test makes: hashing costs 20 ms of CPU a time. */
let testPasswordHash: Promise<string> | undefined;

/** Creates an account directly in the database (verified unless told otherwise) and signs it in. */
export async function createUser(
  t: TestApp,
  options: { name?: string; email?: string; verified?: boolean } = {},
): Promise<SignedInUser> {
  counter += 1;
  const email = options.email ?? `user${counter}-${process.pid}@example.com`;
  const name = options.name ?? `Test User ${counter}`;
  await t.database.db.insert(users).values({ email, name, passwordHash: await (testPasswordHash ??= hashPassword(TEST_PASSWORD)), emailVerified: options.verified ?? true });
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD } });
  if (options.verified === false) {
    // Unverified accounts cannot sign in; they are used through other paths.
    return { id: 0, email, name, accessToken: '', refreshToken: '', auth: { authorization: '' } };
  }
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  const { accessToken, refreshToken, user } = res.json().data;
  return { id: user.id, email, name, accessToken, refreshToken, auth: { authorization: `Bearer ${accessToken}` } };
}

/** Makes `user` the account behind the seller of `carId`, so seller-side rules and notifications apply. */
export async function makeSellerOf(t: TestApp, carId: number, userId: number): Promise<void> {
  const [car] = await t.database.db.select({ sellerId: cars.sellerId }).from(cars).where(eq(cars.id, carId));
  await t.database.db.update(sellers).set({ userId }).where(eq(sellers.id, car!.sellerId));
}
