/**
 * What the Repeat section does (job-repeat.view.ts): reads the job's series, shows the next dates of
 * the rule being chosen (POST /jobs/{id}/series/preview), makes or changes the series, and pauses,
 * resumes or ends it. Plan refusals are said with the plan that unlocks the feature.
 */
import type { JobSeries, JobSeriesAnswer } from '@platform/contracts/job-series.js';

import { call, postJson } from '../field/api.js';
import { $ } from '../shared/dom.js';
import { nextDatesHtml, ruleOfForm } from './job-repeat.view.js';
import { explain, say } from './office-common.js';
import { refusal, sendForm } from './settings-common.js';

const base = (jobId: string) => `/jobs/${encodeURIComponent(jobId)}/series`;

export const seriesOf = (jobId: string) => call<JobSeriesAnswer>(base(jobId)).catch(() => null);

export const previewOf = (jobId: string, rule: string) =>
  postJson<{ dates: string[] }>(`${base(jobId)}/preview`, { rule }).then((r) => r.dates);

function formRule(form: ParentNode): string {
  return ruleOfForm($<HTMLSelectElement>('#r-preset', form)!.value, $<HTMLInputElement>('#r-rule', form)!.value);
}

/** A change of the preset or the custom rule: show the custom field when chosen, and the next dates. */
export async function repeatChanged(el: HTMLInputElement | HTMLSelectElement, jobId: string): Promise<void> {
  const form = el.closest('form');
  if (form?.id !== 'repeat-form' || (el.id !== 'r-preset' && el.id !== 'r-rule')) return;
  $<HTMLElement>('#r-custom', form)!.hidden = $<HTMLSelectElement>('#r-preset', form)!.value !== 'custom';
  const rule = formRule(form);
  const out = $<HTMLElement>('#r-next', form)!;
  if (!rule) return void (out.innerHTML = '<p>Write a rule to see its dates.</p>');
  out.innerHTML = await previewOf(jobId, rule)
    .then(nextDatesHtml)
    .catch(() => '<p>That rule gives no dates: check it.</p>');
}

/** Makes the series (or saves the whole series' changes); true when done. */
export function repeatSubmit(form: HTMLFormElement, jobId: string, editing: boolean): Promise<boolean> {
  const body = {
    rule: formRule(form),
    title: $<HTMLInputElement>('#r-title', form)!.value,
    horizon_months: Number($<HTMLSelectElement>('#r-horizon', form)!.value),
  };
  return sendForm(form, async () => {
    await call<JobSeries>(base(jobId), {
      method: editing ? 'PATCH' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  });
}

/** Pause, resume or end; the sentence to show, or undefined when refused (said already). */
export async function repeatAction(id: string, jobId: string): Promise<string | undefined> {
  const action = { 'repeat-pause': 'pause', 'repeat-resume': 'resume', 'repeat-end': 'end' }[id];
  if (!action) return undefined;
  try {
    await postJson(`${base(jobId)}/${action}`, {});
    return {
      pause: 'The series is paused.',
      resume: 'The series repeats again.',
      end: 'The series has ended; the jobs made stay.',
    }[action];
  } catch (e) {
    say(refusal(e) || explain(e), 'office-msg', 'err');
    return undefined;
  }
}
