/** The field app's screens as HTML strings (the server sent the branded frame around them). */
import { ETA_MINUTES, JOB_KIND_NAMES } from '@platform/contracts/job.js';

import { h, inches, timeWindow } from '../shared/dom.js';
import type { Job, QueueItem, StageKey } from './types.js';

const STAGE_NAMES: Record<StageKey, string> = {
  new: 'New',
  scheduled: 'Scheduled',
  travel: 'Travelling',
  on_site: 'On site',
  done: 'Done',
  cancelled: 'Cancelled',
};

/** `waiting`: how many changes the person who just signed out left on the phone, kept for them. */
export function loginView(error = '', waiting = 0): string {
  const kept = waiting
    ? `<p class="card" role="status">Signed out. Your ${waiting} change${waiting > 1 ? 's' : ''} stay on this phone, kept for you: ${
        waiting > 1 ? 'they are' : 'it is'
      } sent when you sign in again. Nobody else sees ${waiting > 1 ? 'them' : 'it'}.</p>`
    : '';
  return `<h1>Sign in</h1>${kept}<form id="login" class="card" novalidate>
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="row" style="margin-top:1rem"><button class="btn" type="submit">Sign in</button></div>
<p id="login-msg" class="err" role="alert">${h(error)}</p></form>`;
}

export function mapsUrl(j: Job): string {
  if (j.address.maps_url && /^https?:\/\//.test(j.address.maps_url)) return j.address.maps_url;
  const q = [j.address.street, j.address.city, j.address.state, j.address.zip].filter(Boolean).join(', ');
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(q)}`;
}

/** Who the job is for; an order made in the ERP without a customer goes by its name. */
const customerName = (j: Job) => j.customer?.name ?? j.name;
const addressLine = (j: Job) => [j.address.street, j.address.city, j.address.zip].filter(Boolean).join(', ');

/** What the technician sees of a job's queue: waiting, sent, or in trouble. */
export function syncBadge(items: QueueItem[], online: boolean): string {
  const conflict = items.find((i) => i.state === 'conflict');
  if (conflict) return `<span class="sync conflict">Conflict: the office changed this job</span>`;
  const failed = items.find((i) => i.state === 'failed');
  if (failed) return `<span class="sync failed">Not accepted: ${h(failed.error)}</span>`;
  if (items.length)
    return `<span class="sync pending">${items.length} change${items.length > 1 ? 's' : ''} ${
      online ? 'sending…' : 'waiting for signal'
    }</span>`;
  return `<span class="sync sent">All changes sent</span>`;
}

/** A job as the technician left it: the server's job with the changes still waiting applied on top. */
export function withPending(j: Job, items: QueueItem[]): Job & { pendingNotes: string[]; photosWaiting: number } {
  const out = { ...j, pendingNotes: [] as string[], photosWaiting: 0 };
  for (const { change: c, createdAt } of items) {
    if (c.kind === 'note') out.pendingNotes.push(c.body);
    if (c.kind === 'stage') out.stage = { ...out.stage, key: c.stage, name: STAGE_NAMES[c.stage] };
    if (c.kind === 'complete') {
      out.stage = { ...out.stage, key: 'done', name: STAGE_NAMES.done };
      out.resolution = c.resolution;
    }
    if (c.kind === 'checklist')
      out.checklist = out.checklist.map((x) => (x.id === c.itemId ? { ...x, done: c.done } : x));
    if (c.kind === 'upload') {
      // Shown as signed the moment it is taken: the time is the phone's until the server's arrives.
      if (c.uploadKind === 'signature') out.signature = { key: 'waiting', at: new Date(createdAt).toISOString() };
      else out.photosWaiting += 1;
    }
  }
  return out;
}

export function listView(jobs: Job[], queue: QueueItem[], online: boolean, name: string): string {
  const rows = jobs.map((raw) => {
    const items = queue.filter((q) => q.jobId === raw.id);
    const j = withPending(raw, items);
    return `<li class="card"><div class="row" style="justify-content:space-between"><a href="/field/jobs/${h(
      encodeURIComponent(j.id),
    )}" style="font-weight:700">${h(j.route_order ? `${j.route_order}. ` : '')}${h(customerName(j))}</a><span>${kindPill(j)} <span class="pill">${h(j.stage.name)}</span></span></div><div>${h(timeWindow(j.scheduled_start, j.scheduled_end))}</div>
<div><a href="${h(mapsUrl(j))}" target="_blank" rel="noopener">${h(addressLine(j)) || 'Open in maps'}</a></div>
<div class="muted">${h(j.name)}</div><div>${syncBadge(items, online)}</div></li>`;
  });
  return `<div class="row" style="justify-content:space-between"><h1>My jobs</h1><span class="row" style="margin-bottom:.5rem"><a class="btn secondary" href="/field/calendar">Calendar</a><button class="btn secondary" id="logout" type="button">Sign out ${h(
    name,
  )}</button></span></div>${rows.length ? `<ul class="plain">${rows.join('')}</ul>` : '<p>No jobs today or coming up.</p>'}`;
}

/** A badge for a visit that is not an install (most are). */
const kindPill = (j: Job) =>
  j.kind && j.kind !== 'install' ? ` <span class="pill">${h(JOB_KIND_NAMES[j.kind])}</span>` : '';

/** `measure`: a measure job's Measurements section (measure.view.ts), shown after the visit's details. */
export function detailView(
  raw: Job,
  items: QueueItem[],
  online: boolean,
  photoUrls: string[],
  sentPhotoUrls: string[] = [],
  measure = '',
): string {
  const j = withPending(raw, items);
  const done = j.stage.key === 'done' || j.stage.key === 'cancelled';
  const conflict = items.find((i) => i.state === 'conflict' || i.state === 'failed');
  const phone = j.customer?.phone ? j.customer.phone.replace(/[^+\d]/g, '') : '';
  const windows = j.windows
    .map(
      (w) =>
        `<li><strong>${h(w.room)}</strong>: ${h(w.product)}, ${h(inches(w.width_in))} × ${h(inches(w.drop_in))}, ${h(w.mount)} mount, ${h(w.colour)}</li>`,
    )
    .join('');
  const notes = [
    ...j.notes.map((n) => `<li>${h(n.body)} <span class="muted">${h(n.author?.name ?? '')}</span></li>`),
    ...j.pendingNotes.map((b) => `<li>${h(b)} <span class="muted">(waiting to send)</span></li>`),
  ].join('');
  const checklist = j.checklist
    .map(
      (c) =>
        `<li><label style="font-weight:400;display:flex;gap:.5rem;align-items:center"><input type="checkbox" data-check="${h(c.id)}" ${c.done ? 'checked' : ''} ${done ? 'disabled' : ''} style="width:auto"> ${h(c.label)}</label></li>`,
    )
    .join('');
  const stageButtons = done
    ? ''
    : `<fieldset class="card eta"><legend>On my way: arriving in about</legend><div class="row">${ETA_MINUTES.map(
        (m) => `<button class="btn secondary" data-stage="travel" data-eta="${m}" type="button">${m} min</button>`,
      ).join(
        '',
      )}</div><p class="muted">The customer gets a text with the estimate.</p></fieldset><div class="row"><button class="btn secondary" data-stage="on_site" type="button">Arrived on site</button></div>`;
  return `<p><a href="/field/jobs">← My jobs</a></p>
<h1>${h(customerName(j))} <span class="pill">${h(j.stage.name)}</span>${kindPill(j)}</h1>
<div id="sync-state" role="status">${syncBadge(items, online)}</div>
${
  conflict
    ? `<div class="card" role="alert"><p class="err">${h(conflict.error)}</p>${
        conflict.current
          ? `<p>Now: stage <strong>${h(conflict.current.stage.name)}</strong>, ${h(timeWindow(conflict.current.scheduled_start, conflict.current.scheduled_end))}.</p>`
          : ''
      }<div class="row"><button class="btn" data-resolve="resend" type="button">Send mine again</button><button class="btn secondary" data-resolve="discard" type="button">Keep the office's version</button></div></div>`
    : ''
}
<section class="card"><div>${h(timeWindow(j.scheduled_start, j.scheduled_end))}</div>
<div><a href="${h(mapsUrl(j))}" target="_blank" rel="noopener">${h(addressLine(j)) || 'Open in maps'}</a></div>
${phone ? `<div><a class="btn secondary" href="tel:${h(phone)}">Call ${h(j.customer?.phone)}</a></div>` : ''}
<div class="muted">${h(j.name)}</div></section>
${measure}${
    measure && !j.windows.length
      ? ''
      : `<h2>Windows</h2><ul class="${windows ? 'card' : 'plain card'}">${windows || '<li class="muted">No windows listed.</li>'}</ul>`
  }
${stageButtons}
<h2>Checklist</h2><ul class="plain card">${checklist || '<li class="muted">Nothing to check.</li>'}</ul>
<h2>Notes</h2><ul class="${notes ? 'card' : 'plain card'}">${notes || '<li class="muted">No notes yet.</li>'}</ul>
${done ? '' : `<form id="note-form" class="card"><label for="note">Add a note</label><textarea id="note" required maxlength="4000"></textarea><button class="btn" type="submit" style="margin-top:.5rem">Save note</button></form>`}
<h2>Photos</h2><div class="card"><p>${j.photos.length} sent${j.photosWaiting ? `, ${j.photosWaiting} waiting to send` : ''}.</p>
<div class="thumbs">${sentPhotoUrls.map((u, i) => `<img src="${h(u)}" alt="Photo ${i + 1} sent">`).join('')}${photoUrls.map((u, i) => `<img src="${h(u)}" alt="Photo ${i + 1} waiting to send">`).join('')}</div>
${done ? '' : `<div class="row"><label class="btn secondary" for="photo-before">Before photo</label><input id="photo-before" class="visually-hidden" type="file" accept="image/*" capture="environment" data-kind="photo_before"><label class="btn secondary" for="photo-after">After photo</label><input id="photo-after" class="visually-hidden" type="file" accept="image/*" capture="environment" data-kind="photo_after"></div>`}</div>
<h2>Customer signature</h2><div class="card">${
    j.signature
      ? `<p class="ok">Signed${j.signature.key === 'waiting' ? ' (waiting to send)' : ''}.</p>`
      : done
        ? '<p class="muted">Not signed.</p>'
        : `<p id="sig-label" class="muted">Ask the customer to sign below.</p><canvas id="sig" class="sig" role="img" aria-labelledby="sig-label"></canvas><div class="row" style="margin-top:.5rem"><button class="btn" id="sig-save" type="button">Save signature</button><button class="btn secondary" id="sig-clear" type="button">Clear</button></div>`
  }</div>
<h2>Complete</h2>${
    done
      ? `<div class="card"><p class="ok">Job ${h(j.stage.name.toLowerCase())}.</p>${j.resolution ? `<p>${h(j.resolution)}</p>` : ''}</div>`
      : `<form id="complete-form" class="card"><label for="resolution">Resolution</label><textarea id="resolution" required maxlength="4000"></textarea><button class="btn" type="submit" style="margin-top:.5rem">Complete job</button><p id="complete-msg" class="err" role="alert"></p></form>`
  }`;
}
