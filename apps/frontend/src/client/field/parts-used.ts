/**
 * "Parts used" on an install job (docs/inventory.md): the technician picks up to three stocked parts
 * and their quantities; the change is queued like the app's other writes and sent on its own (with its
 * Idempotency-Key, so a resend is consumed once). The parts list is fetched with the jobs and kept
 * on the phone; a plan without stock gets none and the section is not shown. A refusal (not
 * enough in stock) stays on the queue as "Not accepted", naming the part.
 */
import type { PartsAnswer, PartsUsedAnswer } from '@platform/contracts/inventory.js';

import { h } from '../shared/dom.js';
import { ApiError, call, postJson } from './api.js';
import { getParts, type Owner, putParts } from './store.js';
import type { Job, PartsCache, PartUsedLine, QueueItem } from './types.js';

/** Refreshed with the jobs: the stocked parts, or none when the plan has no stock. */
export async function refreshParts(owner: Owner): Promise<void> {
  const kept = (await getParts(owner)) ?? { parts: [], recorded: {} };
  try {
    const r = await call<PartsAnswer>('/inventory/parts', { owner });
    await putParts(owner, { ...kept, parts: r.items.map((p) => ({ id: p.id, name: p.name })) });
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 403)) throw e;
    await putParts(owner, { ...kept, parts: [] });
  }
}

/** Sends a queued "parts used" and keeps what the control plane recorded for the job. */
export async function sendPartsUsed(owner: Owner, jobId: string, parts: PartUsedLine[], key: string): Promise<void> {
  const a = await postJson<PartsUsedAnswer>(
    `/jobs/${encodeURIComponent(jobId)}/parts-used`,
    { parts: parts.map(({ part_id, qty }) => ({ part_id, qty })) },
    { 'idempotency-key': key },
    owner,
  );
  const kept = (await getParts(owner)) ?? { parts: [], recorded: {} };
  await putParts(owner, { ...kept, recorded: { ...kept.recorded, [jobId]: a.parts } });
}

const line = (p: PartUsedLine) => `<li>${h(String(p.qty))} × ${h(p.name)}</li>`;

export function partsUsedSection(job: Job, cache: PartsCache | undefined, items: QueueItem[]): string {
  if (job.kind !== 'install' || !cache?.parts.length) return '';
  const waiting = items.flatMap((q) => (q.change.kind === 'parts-used' ? q.change.parts : []));
  const recorded = cache.recorded[job.id] ?? [];
  const list = [
    recorded.length ? `<p>Recorded:</p><ul id="parts-recorded">${recorded.map(line).join('')}</ul>` : '',
    waiting.length ? `<p>Waiting to send:</p><ul id="parts-waiting">${waiting.map(line).join('')}</ul>` : '',
  ].join('');
  const options = cache.parts.map((p) => `<option value="${p.id}">${h(p.name)}</option>`).join('');
  const done = job.stage.key === 'done' || job.stage.key === 'cancelled';
  // Up to three different parts in one go: a job's parts are consumed once, together.
  const row = (i: number) =>
    `<div class="row"><div><label for="part-pick-${i}">Part ${i + 1}</label><select id="part-pick-${i}" data-part-row="${i}"><option value="">None</option>${options}</select></div>
<div><label for="part-qty-${i}">Quantity</label><input id="part-qty-${i}" type="number" inputmode="decimal" min="0" step="any" value="1"></div></div>`;
  const form =
    done || recorded.length || waiting.length
      ? ''
      : `<form id="parts-form">${[0, 1, 2].map(row).join('')}
<button class="btn" type="submit" style="margin-top:.5rem">Record parts used</button><p id="parts-msg" class="err" role="alert"></p></form>`;
  return `<h2>Parts used</h2><div class="card">${list || (form ? '' : '<p class="muted">None recorded.</p>')}${form}</div>`;
}

/** The form's parts and quantities (a part named twice is added up), or a sentence saying what is missing. */
export function partsFromForm(form: HTMLFormElement, cache: PartsCache | undefined): PartUsedLine[] | string {
  const out = new Map<number, PartUsedLine>();
  for (const pick of Array.from(form.querySelectorAll<HTMLSelectElement>('select[data-part-row]'))) {
    const part = cache?.parts.find((p) => String(p.id) === pick.value);
    if (!part) continue;
    const qty = Number(form.querySelector<HTMLInputElement>(`#part-qty-${pick.dataset.partRow}`)?.value);
    if (!(qty > 0)) return `Enter how many ${part.name} were used.`;
    const had = out.get(part.id)?.qty ?? 0;
    out.set(part.id, { part_id: part.id, qty: had + qty, name: part.name });
  }
  return out.size ? [...out.values()] : 'Choose the parts used.';
}
