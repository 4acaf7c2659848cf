/** Report days are the tenant's: midnight in its time zone (daylight saving included) as the ERP's UTC. */
import { describe, expect, it } from 'vitest';

import { erpRange, rangeOr, todayIn } from './report-range.js';

describe('report ranges in the tenant’s time zone', () => {
  it('runs a Denver day from 07:00 UTC (winter) to 07:00 the next day; dates stay days', () => {
    expect(erpRange({ from: '2026-11-27', to: '2026-11-27' }, 'America/Denver')).toEqual({
      from: '2026-11-27 07:00:00',
      to: '2026-11-28 07:00:00',
      fromDay: '2026-11-27',
      toDay: '2026-11-28',
    });
  });

  it('follows daylight saving: the day clocks spring forward is 23 hours long', () => {
    expect(erpRange({ from: '2026-03-08', to: '2026-03-08' }, 'America/Denver')).toMatchObject({
      from: '2026-03-08 07:00:00',
      to: '2026-03-09 06:00:00',
    });
    expect(erpRange({ from: '2026-07-01', to: '2026-07-31' }, 'Pacific/Auckland')).toMatchObject({
      from: '2026-06-30 12:00:00',
      to: '2026-07-31 12:00:00',
    });
  });

  it('takes "this month so far" from the tenant’s today, not UTC’s', () => {
    // 03:00 UTC on 1 December is still 30 November in Denver: the month is November.
    const today = todayIn(new Date('2026-12-01T03:00:00Z'), 'America/Denver');
    expect(today).toBe('2026-11-30');
    expect(rangeOr({}, today)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(todayIn(new Date('2026-12-01T03:00:00Z'), 'UTC')).toBe('2026-12-01');
  });
});
