/**
 * The Repeat section of an office job (/office/jobs/:id): make the job repeat (a preset or a custom
 * RFC 5545 rule, with the next dates it gives), or the series it belongs to: its state and why,
 * the next dates, the jobs made, pause, resume, end, and editing the whole series. On a plan without
 * recurring jobs: the reason and the plan that unlocks them.
 */
import { type JobSeries, type JobSeriesAnswer, SERIES_PRESETS } from '@platform/contracts/job-series.js';

import { h } from '../shared/dom.js';
import { errSlot } from './office-common.js';

const PLAN_NAMES: Record<string, string> = {
  starter: 'Starter',
  professional: 'Professional',
  enterprise: 'Enterprise',
};
const STATES: Record<JobSeries['state'], string> = {
  active: 'Repeating',
  paused: 'Paused',
  ended: 'Ended',
  paused_by_plan: 'Paused by your plan',
  waiting: 'Waiting',
};
const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });

/** The preset a rule is, or `custom`. */
export const presetOf = (rule: string): string => SERIES_PRESETS.find((p) => p.rule === rule)?.id ?? 'custom';

/** A rule in words: the preset's label, else the rule itself. */
const ruleText = (rule: string) => SERIES_PRESETS.find((p) => p.rule === rule)?.label ?? `Custom: ${rule}`;

/** The rule the form asks for: the preset's, or the custom text. */
export const ruleOfForm = (preset: string, custom: string): string =>
  SERIES_PRESETS.find((p) => p.id === preset)?.rule ?? custom.trim();

export const nextDatesHtml = (dates: string[]) =>
  dates.length
    ? `<ul class="plain">${dates.map((d) => `<li>${h(day(d))}</li>`).join('')}</ul>`
    : '<p>No dates ahead.</p>';

function planLine(plan: string): string {
  return `<p>The ${h(PLAN_NAMES[plan] ?? plan)} plan unlocks recurring jobs. <a href="/office/settings/plan">See the plans</a></p>`;
}

/** The form that makes or edits a series (`s`: the series to edit). */
function formHtml(s: JobSeries | null, dates: string[]): string {
  const preset = s ? presetOf(s.rule) : 'every_12_months';
  const options = [...SERIES_PRESETS.map((p) => ({ id: p.id, label: p.label })), { id: 'custom', label: 'Custom rule' }]
    .map((o) => `<option value="${o.id}"${o.id === preset ? ' selected' : ''}>${h(o.label)}</option>`)
    .join('');
  const custom = preset === 'custom' ? (s?.rule ?? '') : '';
  return `<form id="repeat-form" class="card" novalidate>
<label for="r-preset">Repeats</label><select id="r-preset">${options}</select>
<div id="r-custom"${preset === 'custom' ? '' : ' hidden'}><label for="r-rule">Rule (RFC 5545 RRULE)</label>
<input id="r-rule" data-field="rule" value="${h(custom)}" placeholder="FREQ=MONTHLY;INTERVAL=3" aria-describedby="r-rule-err r-rule-help" autocomplete="off">
<p class="muted" id="r-rule-help">For example FREQ=MONTHLY;INTERVAL=3 (every 3 months) or FREQ=YEARLY;BYMONTH=4 (every April).</p>${errSlot('r-rule', 'rule')}</div>
<label for="r-title">What is done</label><input id="r-title" data-field="title" value="${h(s?.title ?? 'Clean and service the shutters')}" aria-describedby="r-title-err" maxlength="200">${errSlot('r-title', 'title')}
<label for="r-horizon">Make jobs ahead</label><select id="r-horizon" data-field="horizon_months">${[6, 12, 24]
    .map((m) => `<option value="${m}"${m === (s?.horizon_months ?? 12) ? ' selected' : ''}>${m} months</option>`)
    .join('')}</select>
<h3>Next dates</h3><div id="r-next" aria-live="polite">${nextDatesHtml(dates)}</div>
<div class="row" style="margin-top:.75rem"><button class="btn" type="submit" id="repeat-save">${s ? 'Save the series' : 'Repeat this job'}</button></div></form>`;
}

function seriesHtml(jobId: string, a: JobSeriesAnswer & { series: JobSeries }): string {
  const s = a.series;
  const other = s.job_id !== jobId;
  const made = s.occurrences.length
    ? `<h3>Jobs made</h3><ul class="plain" id="r-made">${s.occurrences
        .map((o) => `<li><a href="/office/jobs/${h(o.job_id)}">${h(day(`${o.date}T12:00:00Z`))}</a></li>`)
        .join('')}</ul>`
    : '';
  const buttons = [
    s.status === 'active' ? '<button class="btn secondary" type="button" id="repeat-pause">Pause</button>' : '',
    s.status === 'paused' && a.feature.included
      ? '<button class="btn secondary" type="button" id="repeat-resume">Resume</button>'
      : '',
    s.status !== 'ended' ? '<button class="btn secondary" type="button" id="repeat-end">End the series</button>' : '',
  ].join('');
  const running = s.state === 'active' || s.state === 'waiting';
  return `<div class="card" id="repeat-series"><p><strong>${h(s.title)}</strong> · ${h(ruleText(s.rule))} <span class="pill" id="repeat-state">${h(STATES[s.state])}</span></p>
${other ? `<p>This job is one occurrence: change it here like any job. The series was made from <a href="/office/jobs/${h(s.job_id)}">the first job</a>.</p>` : ''}
${s.reason ? `<p id="repeat-reason">${h(s.reason)}</p>` : ''}${a.feature.included ? '' : planLine(a.feature.required_plan)}
${s.status === 'ended' ? '' : `<h3>${running ? 'Next dates' : 'Next dates once it runs again'}</h3>${nextDatesHtml(s.next_dates)}`}${made}
${buttons ? `<div class="row" style="margin-top:.75rem">${buttons}</div>` : ''}</div>
${s.status !== 'ended' && a.feature.included ? `<details><summary>Change the whole series</summary><p class="muted">A new rule applies to the jobs not made yet; jobs already made stay as they are.</p>${formHtml(s, s.next_dates)}</details>` : ''}`;
}

/** The section; `preview`: the next dates of the form's rule (asked for when it shows). */
export function repeatHtml(jobId: string, a: JobSeriesAnswer | null, scheduled: boolean, preview: string[]): string {
  const body = !a
    ? '<p>Not available just now (reload the page).</p>'
    : a.series
      ? seriesHtml(jobId, { ...a, series: a.series })
      : !a.feature.included
        ? `<p id="repeat-reason">This job does not repeat: recurring jobs are not part of your plan.</p>${planLine(a.feature.required_plan)}`
        : !scheduled
          ? '<p>Schedule the job first: its date and time start the series.</p>'
          : formHtml(null, preview);
  return `<section id="job-repeat" aria-labelledby="repeat-h"><h2 id="repeat-h">Repeat</h2>${body}</section>`;
}
