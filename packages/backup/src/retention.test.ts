import { describe, expect, it } from 'vitest';

import { expiredBackups, isoWeekOf } from './retention.js';

const at = (iso: string) => ({ id: iso, createdAt: iso });

describe('backup retention', () => {
  it('keeps the newest backup of each of the last N days and of each of the last M weeks', () => {
    // Two backups a day from Mon 2026-10-05 to Sun 2026-11-01 (four ISO weeks).
    const all = [];
    for (let d = 0; d < 28; d++) {
      const date = new Date(Date.UTC(2026, 9, 5 + d)).toISOString().slice(0, 10);
      all.push(at(`${date}T03:00:00.000Z`), at(`${date}T15:00:00.000Z`));
    }
    const expired = new Set(expiredBackups(all, { daily: 3, weekly: 3 }));
    const kept = all
      .filter((b) => !expired.has(b.id))
      .map((b) => b.id)
      .sort();
    expect(kept).toEqual([
      '2026-10-18T15:00:00.000Z', // newest of week 42
      '2026-10-25T15:00:00.000Z', // newest of week 43
      '2026-10-30T15:00:00.000Z', // the last three days
      '2026-10-31T15:00:00.000Z',
      '2026-11-01T15:00:00.000Z', // also the newest of week 44
    ]);
  });

  it('expires nothing while there are fewer backups than the policy keeps', () => {
    expect(
      expiredBackups([at('2026-11-01T00:00:00.000Z'), at('2026-11-02T00:00:00.000Z')], { daily: 7, weekly: 4 }),
    ).toEqual([]);
  });

  it('numbers weeks the ISO way across a year boundary', () => {
    expect(isoWeekOf('2026-12-31T12:00:00Z')).toBe('2026-W53');
    expect(isoWeekOf('2027-01-04T12:00:00Z')).toBe('2027-W01');
    expect(isoWeekOf('2026-01-01T12:00:00Z')).toBe('2026-W01');
    expect(isoWeekOf('2024-12-30T12:00:00Z')).toBe('2025-W01');
  });
});
