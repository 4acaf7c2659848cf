/**
 * A job as the office sees it (/office/jobs/:id): when and where, the technician, its windows,
 * checklist, notes, the photos and the signature (through short-lived download URLs), the
 * resolution, its history, and only the actions its stage allows.
 */
import type { Job } from '../field/types.js';
import { h, inches } from '../shared/dom.js';
import { kindBadge, readyBadge } from './board.view.js';
import { canSchedule, canUnschedule } from './job-actions.js';

export interface HistoryEntry {
  at: string;
  action: string;
  actor: { kind: string; id: string | null };
  detail: Record<string, unknown>;
}

/** A photo or the signature with the URL it can be shown and downloaded from (null: not available now). */
export interface ShownFile {
  key: string;
  kind: string;
  at?: string | undefined;
  url: string | null;
}

const STAGES: Record<string, string> = {
  new: 'Needs scheduling',
  scheduled: 'Scheduled',
  travel: 'On the way',
  on_site: 'On site',
  done: 'Done',
  cancelled: 'Cancelled',
};
const KINDS: Record<string, string> = { photo_before: 'Before', photo_after: 'After', signature: 'Signature' };
const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '');

/** One history line in words: "Moved from Scheduled to On the way". */
export function historyText(e: HistoryEntry): string {
  const d = e.detail;
  const stage = (k: unknown) => STAGES[String(k)] ?? String(k);
  switch (e.action) {
    case 'job.create':
      return 'Created';
    case 'job.schedule':
      return `Scheduled for ${when(String(d.scheduled_start ?? ''))}`;
    case 'job.assign':
      return 'Assigned to a technician';
    case 'job.stage':
      return `Moved from ${stage(d.from)} to ${stage(d.to)}`;
    case 'job.complete':
      return 'Completed';
    case 'job.note':
      return 'Note added';
    case 'job.checklist':
      return 'Checklist ticked';
    case 'job.attach':
      return 'Photo or signature added';
    case 'job.series.create':
      return 'Set to repeat';
    default:
      return e.action;
  }
}

function fileHtml(f: ShownFile, n: number): string {
  const label = `${KINDS[f.kind] ?? f.kind}${f.kind === 'signature' ? '' : ` photo ${n}`}`;
  if (!f.url) return `<li class="card"><p>${h(label)}: not available just now (reload the page).</p></li>`;
  return `<li class="card"><figure style="margin:0"><img src="${h(f.url)}" alt="${h(label)}${f.at ? `, ${h(when(f.at))}` : ''}" style="max-width:100%;height:auto;max-height:16rem"><figcaption>${h(label)} · <a href="${h(f.url)}" download>Download</a></figcaption></figure></li>`;
}

function actionsHtml(j: Job): string {
  if (!canSchedule(j.stage.key))
    return `<p class="muted">This job is ${h((STAGES[j.stage.key] ?? j.stage.name).toLowerCase())}: there is nothing more to schedule.</p>${
      // A completed job with its order is invoiced from here (POST /jobs/{id}/invoice: made once).
      j.stage.key === 'done' && j.sale_order_id
        ? '<p><button class="btn" type="button" id="job-invoice">Invoice</button> <span class="muted">The final invoice, the deposit deducted, emailed with a pay link.</span></p>'
        : ''
    }`;
  const start = j.scheduled_start ? new Date(j.scheduled_start) : undefined;
  const local = start ? new Date(start.getTime() - start.getTimezoneOffset() * 60_000).toISOString().slice(0, 16) : '';
  return `<form id="reschedule-form" class="card" novalidate><label for="j-start">Start</label><input id="j-start" type="datetime-local" value="${h(local)}" required>
<div class="row" style="margin-top:.5rem"><button class="btn" type="submit" id="reschedule">${j.scheduled_start ? 'Reschedule' : 'Schedule'}</button>${
    canUnschedule(j.stage.key)
      ? '<button class="btn secondary" type="button" id="unschedule">Back to needs scheduling</button>'
      : ''
  }</div></form>`;
}

/** `repeat`: the Repeat section (job-repeat.view.ts), drawn after the actions. */
export function jobHtml(j: Job, files: ShownFile[], history: HistoryEntry[], msg: string, repeat = ''): string {
  const address = [j.address.street, j.address.city, [j.address.state, j.address.zip].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const windows = j.windows
    .map(
      (w) =>
        `<tr><td data-label="Room">${h(w.room ?? '')}</td><td data-label="Product">${h(w.product ?? '')}</td><td data-label="Size">${h(`${inches(w.width_in)} × ${inches(w.drop_in)}`)}</td><td data-label="Mount">${h(w.mount ?? '')}</td><td data-label="Colour">${h(w.colour ?? '')}</td></tr>`,
    )
    .join('');
  const photos = files.filter((f) => f.kind !== 'signature');
  // Asking for an upload URL is not something that happened to the job; registering the file is.
  const shown = history.filter((e) => e.action !== 'job.upload');
  const signature = files.find((f) => f.kind === 'signature');
  return `<p><a href="/office/dispatch">← Dispatch</a></p><h1>${h(j.customer?.name ?? j.name)} <span class="pill" id="job-stage">${h(STAGES[j.stage.key] ?? j.stage.name)}</span>${kindBadge(j)}${readyBadge(j)}</h1>${j.quote_id ? `<p><a id="job-quote" href="/office/quotes/${h(j.quote_id)}">The draft quote from this visit</a></p>` : ''}
<p>${h(j.name)}${j.scheduled_start ? ` · ${h(when(j.scheduled_start))}` : ' · No date yet'}${j.technician ? ` · ${h(j.technician.name)}` : ' · No technician yet'}</p>
<p>${address ? `<a href="${h(j.address.maps_url ?? '#')}" target="_blank" rel="noopener">${h(address)}</a>` : 'No address'}${j.customer?.phone ? ` · <a href="tel:${h(j.customer.phone.replace(/[^+\d]/g, ''))}">${h(j.customer.phone)}</a>` : ''}</p>
<p id="office-msg" role="status">${h(msg)}</p>
<p><button class="btn secondary" type="button" id="job-pdf">Download PDF report</button></p>
<h2>Actions</h2>${actionsHtml(j)}
${repeat}
<h2>Windows</h2>${windows ? `<table class="lines"><thead><tr><th>Room</th><th>Product</th><th>Size (W × H)</th><th>Mount</th><th>Colour</th></tr></thead><tbody>${windows}</tbody></table>` : '<p>No windows on this job.</p>'}
<h2>Checklist</h2><ul class="plain" id="job-checklist">${j.checklist.map((c) => `<li>${c.done ? '✓ Done' : '○ Not yet'}: ${h(c.label)}</li>`).join('')}</ul>
<h2>Notes</h2>${j.notes.length ? `<ul class="plain">${j.notes.map((n) => `<li class="card"><p>${h(n.body)}</p><p class="muted">${h(n.author?.name ?? '')}${n.at ? ` · ${h(when(n.at))}` : ''}</p></li>`).join('')}</ul>` : '<p>No notes yet.</p>'}
<h2>Photos</h2>${photos.length ? `<ul class="plain" id="job-photos">${photos.map((f, i) => fileHtml(f, i + 1)).join('')}</ul>` : '<p>No photos yet: the technician adds them in the field app.</p>'}
<h2>Signature</h2>${signature ? `<ul class="plain" id="job-signature">${fileHtml(signature, 1)}</ul>` : '<p>Not signed yet.</p>'}
${j.resolution ? `<h2>Resolution</h2><p>${h(j.resolution)}</p>` : ''}
<h2>History</h2>${shown.length ? `<ol id="job-history">${shown.map((e) => `<li>${h(when(e.at))}: ${h(historyText(e))}</li>`).join('')}</ol>` : '<p>Nothing recorded yet.</p>'}`;
}
