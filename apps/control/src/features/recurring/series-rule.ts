/**
 * RFC 5545 recurrence rules, read and expanded by `rrule` (well kept; hand-written recurrence
 * arithmetic gets month ends and leap days wrong). A series stores the RRULE line only: its start is
 * the source job's start, so a rule given with its own DTSTART is refused.
 */
import rrule from 'rrule';

// rrule ships CommonJS: under Node's ESM only its default export is seen.
const { RRule } = rrule;

/** Daily is the finest: an occurrence is one job on one date (unique per series and date). */
const FREQUENCIES = new Set([RRule.YEARLY, RRule.MONTHLY, RRule.WEEKLY, RRule.DAILY]);

/** The rule as stored (no `RRULE:` prefix), or why it is refused. */
export function readRule(text: string): { rule: string } | { error: string } {
  const rule = text.trim().replace(/^RRULE:/i, '');
  if (/DTSTART|\n/i.test(rule)) return { error: 'must be one RRULE line without DTSTART (the job gives the start)' };
  let freq: number | undefined;
  try {
    freq = RRule.parseString(rule).freq;
  } catch {
    return { error: 'must be an RFC 5545 RRULE, e.g. FREQ=YEARLY;INTERVAL=1' };
  }
  if (freq === undefined) return { error: 'must give FREQ (DAILY, WEEKLY, MONTHLY or YEARLY)' };
  if (!FREQUENCIES.has(freq)) return { error: 'must repeat at most daily (FREQ DAILY, WEEKLY, MONTHLY or YEARLY)' };
  return { rule };
}

/** Occurrences of `rule` started at `start`, strictly after `after` and up to `until` (inclusive). */
export function occurrences(rule: string, start: Date, after: Date, until: Date): Date[] {
  const r = new RRule({ ...RRule.parseString(rule), dtstart: start });
  return r.between(after, until, false).filter((d) => d > start);
}

/** The first `n` occurrences strictly after `after` (and after `start`) that `keep` accepts. */
export function nextOccurrences(
  rule: string,
  start: Date,
  after: Date,
  n: number,
  keep: (d: Date) => boolean = () => true,
): Date[] {
  const r = new RRule({ ...RRule.parseString(rule), dtstart: start });
  const out: Date[] = [];
  // Bounded: a rule may end (COUNT, UNTIL) or every date may be made already.
  for (let d = r.after(after > start ? after : start), i = 0; d && out.length < n && i < 1000; i++) {
    if (keep(d)) out.push(d);
    d = r.after(d);
  }
  return out;
}

/** `at` plus whole months (the horizon). */
export function addMonths(at: Date, months: number): Date {
  const d = new Date(at);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

/** The UTC date of an occurrence (the unique key of a made occurrence). */
export const dayOf = (d: Date): string => d.toISOString().slice(0, 10);
