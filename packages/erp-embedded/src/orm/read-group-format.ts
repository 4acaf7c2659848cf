/**
 * How Odoo 15 shapes a `read_group` row: date groups labelled as babel formats them in en_US
 * (`month` → "November 2026", `day` → "05 Nov 2026", `week` → "W48 2026", `quarter` → "Q4 2026",
 * `year` → "2026", `hour` → "02:00 25 Nov") with `__range` {from, to} and a `__domain` [from, to); every group's `__domain` is its own
 * condition ANDed to the request's domain with `expression.AND` (prefix `&`, normalised).
 */
import type { GroupBy, Interval } from './read-group-spec.js';

export type Leaf = unknown[];
export type Domain = unknown[];

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * babel's `'W'w YYYY` in en_US (weeks start on Sunday, one day makes a week), as Odoo 15 labels a
 * week group: a Monday late in December can be "W53" of its year, where ISO would say W1.
 */
function babelWeek(d: Date): [number, number] {
  const y = d.getUTCFullYear();
  const doy = Math.round((Date.UTC(y, d.getUTCMonth(), d.getUTCDate()) - Date.UTC(y, 0, 1)) / 86_400_000) + 1;
  const weekday = (d.getUTCDay() + 6) % 7; // Python's weekday(): Monday 0
  const firstDay = (((weekday - 6 - doy + 1) % 7) + 7) % 7;
  return [Math.floor((doy + firstDay - 1) / 7) + 1, y];
}

export function dateLabel(start: Date, interval: Interval): string {
  const y = start.getUTCFullYear();
  switch (interval) {
    case 'hour': {
      const h = start.getUTCHours() % 12 || 12;
      return `${pad(h)}:00 ${pad(start.getUTCDate())} ${MONTHS[start.getUTCMonth()]!.slice(0, 3)}`;
    }
    case 'day':
      return `${pad(start.getUTCDate())} ${MONTHS[start.getUTCMonth()]!.slice(0, 3)} ${y}`;
    case 'week': {
      const [w, wy] = babelWeek(start);
      return `W${w} ${wy}`;
    }
    case 'month':
      return `${MONTHS[start.getUTCMonth()]} ${y}`;
    case 'quarter':
      return `Q${Math.floor(start.getUTCMonth() / 3) + 1} ${y}`;
    case 'year':
      return String(y);
  }
}

function addInterval(d: Date, interval: Interval): Date {
  const r = new Date(d.getTime());
  if (interval === 'hour') r.setUTCHours(r.getUTCHours() + 1);
  else if (interval === 'day') r.setUTCDate(r.getUTCDate() + 1);
  else if (interval === 'week') r.setUTCDate(r.getUTCDate() + 7);
  else r.setUTCMonth(r.getUTCMonth() + (interval === 'month' ? 1 : interval === 'quarter' ? 3 : 12));
  return r;
}

const wire = (d: Date, datetime: boolean) => {
  const s = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return datetime ? `${s} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` : s;
};

/** The value shown for a date group and the group's condition, from the truncated start (UTC text). */
export function dateGroup(
  gb: GroupBy,
  start: string | null,
): { value: unknown; domain: Domain; range: { from: string; to: string } | false } {
  if (start === null) return { value: false, domain: [[gb.field.name, '=', false]], range: false };
  const d = new Date(`${start.slice(0, 19).replace(' ', 'T')}Z`);
  const datetime = gb.field.type === 'datetime';
  const field = gb.field.name;
  const [from, to] = [wire(d, datetime), wire(addInterval(d, gb.interval!), datetime)];
  return {
    value: dateLabel(d, gb.interval!),
    domain: ['&', [field, '>=', from], [field, '<', to]],
    range: { from, to },
  };
}

const TRUE_DOMAIN: Domain = [[1, '=', 1]];
const isOp = (t: unknown) => t === '&' || t === '|' || t === '!';

/** Odoo's `expression.normalize_domain`: explicit `&` for the implicit ANDs. */
export function normalizeDomain(domain: Domain): Domain {
  if (!domain.length) return TRUE_DOMAIN;
  const out: Domain = [];
  let expected = 1;
  for (const t of domain) {
    if (expected === 0) {
      out.unshift('&');
      expected = 1;
    }
    if (Array.isArray(t)) expected -= 1;
    else if (isOp(t)) expected += t === '!' ? 0 : 1;
    out.push(t);
  }
  return out;
}

/** Odoo's `expression.AND(domains)` (the empty domain is the unit, skipped). */
export function andDomains(domains: Domain[]): Domain {
  const parts = domains.filter((d) => d.length > 0 && JSON.stringify(d) !== JSON.stringify(TRUE_DOMAIN));
  if (!parts.length) return TRUE_DOMAIN;
  const out: Domain = [];
  for (const d of parts) out.push(...normalizeDomain(d));
  return [...Array(parts.length - 1).fill('&'), ...out];
}
