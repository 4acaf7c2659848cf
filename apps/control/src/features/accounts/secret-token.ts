/**
 * The opaque secrets of accounts (refresh tokens, invitation and reset links): 32 random bytes,
 * base64url. Only their SHA-256 is stored, so a copy of the database cannot sign anybody in; a
 * plain hash suffices because the secret has 256 bits of entropy (nothing to guess or to salt).
 */
import { createHash, randomBytes } from 'node:crypto';

export interface SecretToken {
  token: string;
  hash: Buffer;
}

export const hashToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

export function newSecretToken(): SecretToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** The shape of a token we issue; anything else cannot be one (and is not looked up). */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
