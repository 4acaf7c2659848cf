/** PKCE (RFC 7636) with S256 only: `plain` would let a stolen code be redeemed, so it is refused. */
import { createHash } from 'node:crypto';

import { sameSecret } from '@platform/credentials';

/** 43–128 characters of [A-Za-z0-9-._~] (RFC 7636 §4.1). */
export const VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;
/** BASE64URL(SHA-256(verifier)) is always 43 characters. */
export const S256_CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

export function verifierMatches(verifier: string, challenge: string): boolean {
  return VERIFIER_RE.test(verifier) && sameSecret(s256(verifier), challenge);
}
