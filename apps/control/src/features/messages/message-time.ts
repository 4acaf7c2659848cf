/**
 * Local time in a tenant's (or customer's) IANA zone with Intl only: the reminder's local hour the day
 * before, and quiet hours (21:00–08:00, when no automatic text is sent). Each instant is found from its
 * wall-clock time with the offset of that instant, so the hour holds across a daylight-saving change.
 */
export const QUIET_FROM_HOUR = 21;
export const QUIET_UNTIL_HOUR = 8;

interface Local {
  day: string;
  hour: number;
  minute: number;
}

const fmt = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = fmt.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      ...{ year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' },
    });
    fmt.set(timeZone, f);
  }
  return f;
}

function wallClock(ms: number, timeZone: string) {
  const p = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((x) => [x.type, Number(x.value)]),
  );
  return { y: p.year!, mo: p.month!, d: p.day!, h: p.hour!, mi: p.minute!, s: p.second! };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall-clock day, hour and minute of `ms` in `timeZone`. */
export function localOf(ms: number, timeZone: string): Local {
  const w = wallClock(ms, timeZone);
  return { day: `${w.y}-${pad(w.mo)}-${pad(w.d)}`, hour: w.h, minute: w.mi };
}

const offsetAt = (ms: number, timeZone: string) => {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - Math.floor(ms / 1000) * 1000;
};

/** The instant that reads `day` `hour`:`minute` in `timeZone` (a time skipped by DST moves an hour on). */
export function instantAt(day: string, hour: number, minute: number, timeZone: string): number {
  const naive = Date.parse(`${day}T${pad(hour)}:${pad(minute)}:00Z`);
  // The offsets on either side of a change: one of them reads the asked time, unless it was skipped.
  const before = naive - offsetAt(naive, timeZone);
  const after = naive - offsetAt(before, timeZone);
  const reads = (ms: number) => {
    const l = localOf(ms, timeZone);
    return l.day === day && l.hour === hour && l.minute === minute;
  };
  if (reads(after)) return after;
  return reads(before) ? before : Math.max(before, after);
}

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The day before the appointment's local day, at the tenant's hour. */
export function reminderDue(startMs: number, hour: number, timeZone: string): number {
  return instantAt(addDays(localOf(startMs, timeZone).day, -1), hour, 0, timeZone);
}

/** When a text due at `ms` may go: `ms` itself, or 08:00 after it when it falls in quiet hours. */
export function outsideQuietHours(ms: number, timeZone: string): number {
  const l = localOf(ms, timeZone);
  if (l.hour >= QUIET_UNTIL_HOUR && l.hour < QUIET_FROM_HOUR) return ms;
  const day = l.hour >= QUIET_FROM_HOUR ? addDays(l.day, 1) : l.day;
  return instantAt(day, QUIET_UNTIL_HOUR, 0, timeZone);
}

/** "Tuesday 1 December" and "10:00–12:00" of an appointment, in the zone. */
export function appointmentWords(startMs: number, endMs: number | undefined, timeZone: string) {
  const date = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(
    new Date(startMs),
  );
  const hm = (ms: number) => {
    const l = localOf(ms, timeZone);
    return `${pad(l.hour)}:${pad(l.minute)}`;
  };
  return { date, window: endMs ? `${hm(startMs)}–${hm(endMs)}` : hm(startMs) };
}
