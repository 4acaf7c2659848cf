/**
 * Phone numbers for SMS: E.164 digits without `+` (`16505551212`), via libphonenumber-js.
 * International input (`+44 20 …`, `0044 20 …`) needs no region; national input
 * (`(650) 555-1212`, `020 7946 0018`) is read in `defaultRegion` (ISO 3166 alpha-2, e.g. `US`),
 * which comes from configuration. Only numbers the library considers valid are returned.
 */
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';

export function normalizePhone(input: string | null | undefined, defaultRegion?: string): string | undefined {
  if (typeof input !== 'string') return undefined;
  let raw = input.trim();
  if (raw === '') return undefined;
  if (raw.startsWith('00')) raw = `+${raw.slice(2)}`;
  const region = defaultRegion?.trim().toUpperCase() as CountryCode | undefined;
  const parsed =
    raw.startsWith('+') || !region ? parsePhoneNumberFromString(raw) : parsePhoneNumberFromString(raw, region);
  return parsed?.isValid() ? parsed.number.slice(1) : undefined;
}

/** For values that are already international digits (provider payloads): `16505551212` or `+16505551212`. */
export function normalizeInternationalDigits(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const s = String(value).trim();
  return normalizePhone(s.startsWith('+') ? s : `+${s}`) ?? s.replace(/\D/g, '');
}

/**
 * Whether a number as someone typed it (`(720) 555-0188`, `+1 720 555 0130 ext. 188`) is the whole
 * of `e164Digits` (`17205550188`): parsed, with a national number read in the region of the number
 * it is compared with, and equal to it in E.164. An extension or extra digits make it another number.
 */
export function isSamePhone(typed: unknown, e164Digits: string): boolean {
  if (typeof typed !== 'string' || typed.trim() === '') return false;
  const target = parsePhoneNumberFromString(`+${e164Digits.replace(/^\+/, '')}`);
  if (!target) return false;
  let raw = typed.trim();
  if (raw.startsWith('00')) raw = `+${raw.slice(2)}`;
  const parsed = raw.startsWith('+')
    ? parsePhoneNumberFromString(raw)
    : parsePhoneNumberFromString(raw, target.country ?? 'US');
  if (!parsed || parsed.ext) return false;
  return parsed.number === target.number;
}
