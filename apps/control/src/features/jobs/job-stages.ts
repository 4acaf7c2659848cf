/**
 * Stage moves of a job (the spec leaves them "not shown"; decided here, docs/control-plane.md "Jobs").
 * `done` is reached only by completing (with a resolution); `done` and `cancelled` are final.
 */
import { AppError } from '@platform/kernel';

import type { StageKey } from './jobs.types.js';

export const TRANSITIONS: Record<StageKey, StageKey[]> = {
  new: ['scheduled', 'cancelled'],
  scheduled: ['new', 'travel', 'on_site', 'cancelled'],
  travel: ['scheduled', 'on_site', 'cancelled'],
  on_site: ['travel', 'cancelled'],
  done: [],
  cancelled: [],
};

/** Stages a technician may move their own job to (the office schedules and cancels). */
export const TECHNICIAN_STAGES: StageKey[] = ['travel', 'on_site', 'scheduled'];

export const isOpen = (k: StageKey) => k !== 'done' && k !== 'cancelled';

export function assertMove(from: StageKey, to: StageKey): void {
  if (to === 'done')
    throw new AppError(
      'JOB_TRANSITION_INVALID',
      'A job is done by completing it with a resolution (POST /jobs/{id}/complete).',
      {
        details: { from, to, allowed: TRANSITIONS[from] },
      },
    );
  if (!TRANSITIONS[from].includes(to))
    throw new AppError('JOB_TRANSITION_INVALID', `A job cannot move from ${from} to ${to}.`, {
      details: { from, to, allowed: TRANSITIONS[from] },
    });
}

export function assertOpen(from: StageKey, what: string): void {
  if (!isOpen(from))
    throw new AppError('JOB_TRANSITION_INVALID', `A ${from} job cannot be ${what}.`, {
      details: { from, allowed: [] },
    });
}
