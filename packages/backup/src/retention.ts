/**
 * Retention: keep the newest backup of each of the last `daily` days that have one, and the newest of
 * each of the last `weekly` ISO weeks that have one; everything else expires. Days and weeks are UTC.
 */
export interface RetentionPolicy {
  daily: number;
  weekly: number;
}

const day = (iso: string) => iso.slice(0, 10);

function isoWeek(iso: string): string {
  const d = new Date(`${day(iso)}T00:00:00Z`);
  const dow = (d.getUTCDay() + 6) % 7; // Monday = 0
  d.setUTCDate(d.getUTCDate() - dow + 3); // the Thursday decides the ISO year
  const year = d.getUTCFullYear();
  const week = 1 + Math.floor((d.getTime() - Date.UTC(year, 0, 1)) / 604_800_000);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

export function expiredBackups(backups: { id: string; createdAt: string }[], policy: RetentionPolicy): string[] {
  const newestFirst = [...backups].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  const keep = new Set<string>();
  const pick = (bucket: (iso: string) => string, n: number) => {
    const seen = new Set<string>();
    for (const b of newestFirst) {
      const k = bucket(b.createdAt);
      if (seen.has(k)) continue;
      if (seen.size >= n) break;
      seen.add(k);
      keep.add(b.id);
    }
  };
  pick(day, policy.daily);
  pick(isoWeek, policy.weekly);
  return newestFirst.filter((b) => !keep.has(b.id)).map((b) => b.id);
}

export { isoWeek as isoWeekOf };
