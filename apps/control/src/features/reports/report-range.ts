/**
 * Report ranges: days (yyyy-mm-dd, both included) to ERP datetimes, and the calendar months the
 * summary compares. Days are UTC days, as the ERP stores its datetimes (docs/reports.md).
 */
import type { ErpRange } from './reports-erp.js';

export interface DayRange {
  from: string;
  to: string;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: string, n: number) => day(new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000));

/** From the first day's midnight to the midnight after the last. */
export const erpRange = (r: DayRange): ErpRange => ({ from: `${r.from} 00:00:00`, to: `${addDays(r.to, 1)} 00:00:00` });

/** The range asked for, else the month so far (first of the month to today). */
export function rangeOr(q: { from?: string | undefined; to?: string | undefined }, now: Date): DayRange {
  const to = q.to ?? day(now);
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
