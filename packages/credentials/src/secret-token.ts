/**
 * Secrets handed out by the REST API (API keys, client secrets, codes, tokens): 256 random bits,
 * base64url, behind a short type prefix so secret scanners and people can tell them apart. Only the
 * SHA-256 is stored: with 256 random bits a fast hash cannot be reversed or brute-forced (ASVS 6.5.2).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

export const newSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

/** An API key: `erpk_<8-char public prefix>_<secret>`; the prefix identifies the key in lists and logs. */
export function newApiKey(): { key: string; prefix: string } {
  const prefix = randomBytes(6).toString('base64url');
  return { key: `erpk_${prefix}_${randomBytes(32).toString('base64url')}`, prefix };
}

export const API_KEY_RE = /^erpk_([A-Za-z0-9_-]{8})_[A-Za-z0-9_-]{43}$/;

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
