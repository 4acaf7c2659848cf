/**
 * Meta Conversions API customer-information normalisation and hashing.
 *
 * - SHA-256, lowercase hex.
 * - em: trim + lowercase.
 * - ph: digits only, no leading zeros, with country code (E.164 without `+`). Numbers written
 *   in national form get `defaultCountryCode` (a calling code such as '1'); normalisation uses
 *   libphonenumber-js, with a plain digits fallback for numbers it cannot place.
 * - fn / ln: lowercase, no punctuation (nor spaces), UTF-8 (NFC).
 * - client_ip_address, client_user_agent, fbc, fbp: NEVER hashed.
 */
import { createHash } from 'node:crypto';

import { type CountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';

import type { ConversionUser } from '../conversions.port.js';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Trim + lowercase; `undefined` when empty. */
export function normalizeEmail(email: string | null | undefined): string | undefined {
  if (typeof email !== 'string') return undefined;
  const v = email.trim().toLowerCase();
  return v === '' ? undefined : v;
}

/**
 * E.164 digits without `+` (e.g. `16505551212`), or `undefined` when nothing usable remains.
 * `defaultCountryCode` is a calling code ('1', '44', …) used for numbers without one.
 */
export function normalizePhone(phone: string | null | undefined, defaultCountryCode?: string): string | undefined {
  if (typeof phone !== 'string') return undefined;
  let raw = phone.trim();
  if (raw === '') return undefined;
  if (raw.startsWith('00')) raw = `+${raw.slice(2)}`;
  const cc = defaultCountryCode?.replace(/\D/g, '') || undefined;

  const parsed = raw.startsWith('+')
    ? parsePhoneNumberFromString(raw)
    : cc
      ? parsePhoneNumberFromString(raw, { defaultCallingCode: cc as CountryCallingCode })
      : undefined;
  if (parsed && parsed.isPossible()) return parsed.number.replace(/^\+/, '');

  // Fallback: the reference's plain rule.
  let digits = raw.replace(/\D/g, '').replace(/^0+/, '');
  if (digits === '') return undefined;
  if (!raw.startsWith('+') && cc && digits.length === 10) digits = `${cc}${digits}`;
  return digits;
}

/** Lowercase, NFC, letters (any script) and combining marks only. */
export function normalizeName(name: string | null | undefined): string | undefined {
  if (typeof name !== 'string') return undefined;
  const v = name
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}]/gu, '');
  return v === '' ? undefined : v;
}

export const hashEmail = (email: string | null | undefined): string | undefined => {
  const n = normalizeEmail(email);
  return n === undefined ? undefined : sha256Hex(n);
};

export const hashPhone = (phone: string | null | undefined, defaultCountryCode?: string): string | undefined => {
  const n = normalizePhone(phone, defaultCountryCode);
  return n === undefined ? undefined : sha256Hex(n);
};

export const hashName = (name: string | null | undefined): string | undefined => {
  const n = normalizeName(name);
  return n === undefined ? undefined : sha256Hex(n);
};

/** Meta's `user_data` wire object. */
export interface MetaUserData {
  em?: string[];
  ph?: string[];
  fn?: string;
  ln?: string;
  client_ip_address?: string;
  client_user_agent?: string;
  fbc?: string;
  fbp?: string;
}

export interface MetaHashingOptions {
  /** Calling code for phone numbers written without one, e.g. '1'. */
  defaultCountryCode?: string;
}

/** Builds Meta `user_data` from our raw user: hashes em/ph/fn/ln, passes the rest through unhashed. */
export function toMetaUserData(user: ConversionUser, opts: MetaHashingOptions = {}): MetaUserData {
  const out: MetaUserData = {};
  const em = hashEmail(user.email);
  if (em) out.em = [em];
  const ph = hashPhone(user.phone, opts.defaultCountryCode);
  if (ph) out.ph = [ph];
  const fn = hashName(user.firstName);
  if (fn) out.fn = fn;
  const ln = hashName(user.lastName);
  if (ln) out.ln = ln;
  const plain = (v: string | undefined): string | undefined =>
    typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  const ip = plain(user.clientIpAddress);
  if (ip) out.client_ip_address = ip;
  const ua = plain(user.clientUserAgent);
  if (ua) out.client_user_agent = ua;
  const fbc = plain(user.fbc);
  if (fbc) out.fbc = fbc;
  const fbp = plain(user.fbp);
  if (fbp) out.fbp = fbp;
  return out;
}
