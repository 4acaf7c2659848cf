/**
 * Report ranges in the tenant's time zone (Settings → Company, docs/reports.md): "today", "this month"
 * and a from/to of days are the tenant's calendar days, turned here into the UTC datetimes the ERP
 * stores (a day in Denver runs from 06:00 or 07:00 UTC to the same the next day). Invoice dates are
 * calendar days already and are compared as days.
 */
import type { ErpRange } from './reports-erp.js';

export interface DayRange {
  from: string;
  to: string;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: string, n: number) => day(new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000));
const erpTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** The day it is now in `timeZone` (yyyy-mm-dd). */
export const todayIn = (now: Date, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

/** How far `timeZone` is ahead of UTC at the instant `ms`, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      ...{ year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' },
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, Number(p.value)]),
  );
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return local - Math.floor(ms / 1000) * 1000;
}

/** The UTC instant of midnight starting `d` in `timeZone` (the offset of that night, DST included). */
export function midnightIn(d: string, timeZone: string): number {
  const naive = Date.parse(`${d}T00:00:00Z`);
  const guess = naive - offsetAt(naive, timeZone);
  return naive - offsetAt(guess, timeZone);
}

/** From the first day's midnight to the midnight after the last, both in the tenant's time zone. */
export const erpRange = (r: DayRange, timeZone = 'UTC'): ErpRange => {
  const end = addDays(r.to, 1);
  return {
    from: erpTime(midnightIn(r.from, timeZone)),
    to: erpTime(midnightIn(end, timeZone)),
    fromDay: r.from,
    toDay: end,
  };
};

/** The range asked for, else the month so far (first of the month to `today`, the tenant's day). */
export function rangeOr(q: { from?: string | undefined; to?: string | undefined }, today: string): DayRange {
  const to = q.to ?? today;
  return { from: q.from ?? `${to.slice(0, 8)}01`, to };
}

/** The calendar month holding `to`, and the one before (each whole). */
export function months(to: string): { current: DayRange; previous: DayRange } {
  const [y, m] = to.split('-').map(Number) as [number, number];
  const first = (yy: number, mm: number) => day(new Date(Date.UTC(yy, mm - 1, 1)));
  const start = first(y, m);
  const next = first(y, m + 1);
  const prev = first(y, m - 1);
  return { current: { from: start, to: addDays(next, -1) }, previous: { from: prev, to: addDays(start, -1) } };
}
