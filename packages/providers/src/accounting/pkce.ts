/**
 * PKCE (RFC 7636) with S256, the only method the accounting providers accept from us.
 * The verifier stays on our side (stored with `state` until the callback); only the challenge
 * travels in the authorize URL.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  /** 43 characters of base64url (32 random bytes). */
  codeVerifier: string;
  /** base64url(SHA-256(codeVerifier)). */
  codeChallenge: string;
}

export function pkceChallengeS256(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
}

export function createPkcePair(): PkcePair {
  const codeVerifier = randomBytes(32).toString('base64url');
  return { codeVerifier, codeChallenge: pkceChallengeS256(codeVerifier) };
}
