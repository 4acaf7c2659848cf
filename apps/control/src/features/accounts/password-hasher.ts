/** Password hashing: argon2id (the @node-rs/argon2 default) with its PHC string stored whole. */
import { randomBytes } from 'node:crypto';

import { hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD_LENGTH = 10;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

/** False for a wrong password and for a missing or malformed hash (never throws on bad input). */
export async function verifyPassword(phc: string | null, password: string): Promise<boolean> {
  if (!phc) return false;
  try {
    return await verify(phc, password);
  } catch {
    return false;
  }
}

// A hash of nothing anyone knows, made once with the same parameters as real ones, so that checking
// a password of an unknown (or password-less) account costs what checking a real one costs: the
// answer's timing does not tell whether the account exists.
let dummy: Promise<string> | undefined;
/** Made at start-up (composition root), so the first unknown email is not slower than the rest. */
export const dummyHash = () => (dummy ??= hashPassword(randomBytes(24).toString('base64url')));

/** Verifies against the account's hash, or against the dummy when there is none (always false then). */
export async function verifyPasswordOrDummy(phc: string | null | undefined, password: string): Promise<boolean> {
  if (!phc) {
    await verifyPassword(await dummyHash(), password);
    return false;
  }
  return verifyPassword(phc, password);
}
