import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane). Passwords are hashed
 * exactly as typed: no trimming, no case folding.
 */
/** `Algorithm.Argon2id`; the package exports it as a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    await burnVerificationTime(password);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends as long as a real verification, so a response for an unknown account takes as long
 * as one for a wrong password and timing does not reveal which addresses have accounts.
 */
export async function burnVerificationTime(password: string): Promise<void> {
  dummyHash ??= hash('not-a-real-password', ARGON2_OPTIONS);
  await verify(await dummyHash, password).catch(() => false);
}
