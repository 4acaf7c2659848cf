/**
 * A job's repeat series as the control plane's /jobs/{id}/series answers it (docs/control-plane.md,
 * "Recurring jobs"); the office's Repeat section reads this one declaration. Browser-safe.
 */
export const SERIES_STATUSES = ['active', 'paused', 'ended'] as const;
export type SeriesStatus = (typeof SERIES_STATUSES)[number];

/**
 * What the series does now: its status, unless something stops it (`paused_by_plan` after a plan
 * downgrade; `waiting` while the month's job limit holds the next occurrence back).
 */
export type SeriesState = SeriesStatus | 'paused_by_plan' | 'waiting';

/** The presets the office offers beside a custom RFC 5545 rule. */
export const SERIES_PRESETS = [
  { id: 'every_6_months', label: 'Every 6 months', rule: 'FREQ=MONTHLY;INTERVAL=6' },
  { id: 'every_12_months', label: 'Every 12 months', rule: 'FREQ=YEARLY;INTERVAL=1' },
] as const;

export const DEFAULT_HORIZON_MONTHS = 12;

export interface JobSeries {
  id: string;
  /** The job the series was made from. */
  job_id: string;
  rule: string;
  title: string;
  horizon_months: number;
  status: SeriesStatus;
  state: SeriesState;
  /** Why it is paused or waiting, as a sentence for the office; null when it runs. */
  reason: string | null;
  /** The next occurrences not generated yet (ISO instants), at most five. */
  next_dates: string[];
  /** Occurrences already made into jobs. */
  occurrences: { date: string; job_id: string }[];
}

/** GET /jobs/{id}/series: the series (or null) and whether the plan includes recurring jobs. */
export interface JobSeriesAnswer {
  series: JobSeries | null;
  feature: { included: boolean; required_plan: string };
}
