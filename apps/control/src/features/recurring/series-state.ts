/** How a series reads to the office: its state, and why it does not run when it does not. */
import type { JobSeries } from '@platform/contracts/job-series.js';

import type { SeriesRow } from './recurring.repo.js';

/** What the office is told: a stop the plan made, or the month's limit holding an occurrence back. */
export function stateOf(
  s: SeriesRow,
  included: boolean,
  monthLimit: number | null,
): Pick<JobSeries, 'state' | 'reason'> {
  if (s.status !== 'active')
    return { state: s.status, reason: s.status === 'paused' ? 'Paused: no new occurrences are made.' : null };
  if (!included)
    return {
      state: 'paused_by_plan',
      reason: 'Paused: your plan no longer includes recurring jobs. Jobs already made stay.',
    };
  if (s.waiting_reason === 'job_limit')
    return {
      state: 'waiting',
      reason: `Waiting: the occurrence of ${s.waiting_date} is made when the month's job limit (${monthLimit ?? 'none'}) has room.`,
    };
  if (s.waiting_reason === 'source_missing')
    return { state: 'waiting', reason: 'Waiting: the job this series repeats has no customer or address any more.' };
  return { state: 'active', reason: null };
}
