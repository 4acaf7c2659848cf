/**
 * A measure job's "Measurements" (docs/frontend.md "Field app: measuring"): the windows as the
 * measurer left them (what the phone keeps with the changes still waiting laid over it), each priced
 * or flagged on the spot with the quote builder's pricing (@platform/contracts), the form to add or
 * edit one (whole inches plus eighths, as the quote builder), and "Send to office".
 */
import { type Measurement, type MeasurementInput, priceMeasurement } from '@platform/contracts/measurement.js';
import type { PriceGrid } from '@platform/contracts/window-pricing.js';

import { h, inches } from '../shared/dom.js';
import { eighthOptions, measure } from '../shared/inch-input.js';
import { formatMoney, tenantCurrency, toMinor } from '../shared/money.js';
import type { Job, MeasureCache, QueueItem } from './types.js';

export interface MeasuredWindow extends Measurement {
  waiting: boolean;
}

/** The windows: the kept ones with the waiting changes applied in order, each priced as the server will. */
export function measuredWindows(cache: MeasureCache | undefined, items: QueueItem[]): MeasuredWindow[] {
  const list: MeasuredWindow[] = (cache?.items ?? []).map((m) => ({ ...m, waiting: false }));
  for (const { change: c, createdAt } of items) {
    if (c.kind === 'measure-remove') list.splice(0, list.length, ...list.filter((w) => w.id !== c.id));
    if (c.kind !== 'measure') continue;
    const priced = priceMeasurement(
      cache?.grids.find((g) => g.product_code === c.m.product_code),
      c.m,
    );
    const at = list.findIndex((w) => w.id === c.id);
    const w: MeasuredWindow = {
      ...c.m,
      id: c.id,
      position: at >= 0 ? list[at]!.position : Math.max(0, ...list.map((x) => x.position)) + 1,
      unit_price: priced.line?.unit_price ?? null,
      flags: priced.flags,
      updated_at: new Date(createdAt).toISOString(),
      waiting: true,
    };
    if (at >= 0) list[at] = w;
    else list.push(w);
  }
  return list;
}

const money = (x: number) => formatMoney(toMinor(x, tenantCurrency()), tenantCurrency());

function windowCard(w: MeasuredWindow, n: number, grids: PriceGrid[], photos: { sent: number; waiting: number }) {
  const g = grids.find((x) => x.product_code === w.product_code);
  const opts = w.options.map((o) => g?.options.find((x) => x.code === o)?.name ?? o).join(', ');
  const price =
    w.unit_price !== null ? `<strong>${h(money(w.unit_price))}</strong>` : '<span class="pill flag">Not priced</span>';
  const photoText =
    photos.sent + photos.waiting
      ? `<div class="muted">${photos.sent + photos.waiting} photo${photos.sent + photos.waiting > 1 ? 's' : ''}${photos.waiting ? ` (${photos.waiting} waiting to send)` : ''}</div>`
      : '';
  return `<li class="card" id="m-${h(w.id)}"><div class="row" style="justify-content:space-between"><strong>${n}. ${h(w.room)}</strong>${price}</div>
<div>${h(g?.name ?? w.product_code)}, ${h(inches(w.width_in))} × ${h(inches(w.drop_in))}, ${h(w.mount)} mount${w.colour ? `, ${h(w.colour)}` : ''}</div>
${opts ? `<div class="muted">Options: ${h(opts)}</div>` : ''}${w.notes ? `<div class="muted">Notes: ${h(w.notes)}</div>` : ''}
${w.flags.map((f) => `<p class="err">${h(f.message)}</p>`).join('')}${photoText}${w.waiting ? '<div class="muted">(waiting to send)</div>' : ''}
<div class="row" style="margin-top:.5rem"><button class="btn secondary" type="button" data-measure-edit="${h(w.id)}" aria-label="Edit window ${n}, ${h(w.room)}">Edit</button><button class="btn secondary" type="button" data-measure-remove="${h(w.id)}" aria-label="Remove window ${n}, ${h(w.room)}">Remove</button><label class="btn secondary" for="mp-${h(w.id)}">Add photo<span class="visually-hidden"> of window ${n}</span></label><input id="mp-${h(w.id)}" class="visually-hidden" type="file" accept="image/*" capture="environment" data-measure-photo="${h(w.id)}"></div></li>`;
}

export function optionChecks(grid: PriceGrid | undefined, chosen: string[]): string {
  if (!grid?.options.length) return '<p class="muted">No options for this product.</p>';
  return grid.options
    .map(
      (o) =>
        `<label class="check" for="mf-opt-${h(o.code)}"><input type="checkbox" id="mf-opt-${h(o.code)}" data-measure-option="${h(o.code)}" ${chosen.includes(o.code) ? 'checked' : ''}> ${h(o.name)} (+${h(money(o.price))})</label>`,
    )
    .join('');
}

const size = (key: 'width' | 'drop', label: string) =>
  `<fieldset class="size"><legend>${label}</legend><div class="inch"><label for="mf-${key}">Inches</label><input id="mf-${key}" type="number" inputmode="numeric" min="1" max="600" step="1"></div><div class="inch"><label for="mf-${key}8">Eighths</label><select id="mf-${key}8">${eighthOptions(0)}</select></div></fieldset>`;

function form(grids: PriceGrid[], jobId: string): string {
  const products = grids.map((g) => `<option value="${h(g.product_code)}">${h(g.name)}</option>`).join('');
  return `<form id="measure-form" class="card measure" data-job="${h(jobId)}" novalidate><h3 id="mf-title">Add a window</h3><input type="hidden" id="mf-id">
<label for="mf-room">Room</label><input id="mf-room" maxlength="60" autocomplete="off">
<label for="mf-product">Product</label><select id="mf-product">${products}</select>
${size('width', 'Width')}${size('drop', 'Drop')}
<label for="mf-mount">Mount</label><select id="mf-mount"><option value="inside">Inside</option><option value="outside">Outside</option></select>
<label for="mf-colour">Colour</label><input id="mf-colour" maxlength="40" autocomplete="off">
<fieldset><legend>Options</legend><div id="mf-options" class="checks">${optionChecks(grids[0], [])}</div></fieldset>
<label for="mf-notes">Notes</label><textarea id="mf-notes" maxlength="2000"></textarea>
<p>Price: <output id="mf-price" for="mf-product mf-width mf-drop mf-mount">–</output></p><div id="mf-flags" role="status"></div>
<div class="row"><button class="btn" type="submit">Save window</button><button class="btn secondary" type="button" id="mf-cancel">Clear</button></div>
<p id="mf-msg" class="err" role="alert"></p></form>`;
}

/** Photos of each window still waiting to be sent. */
export function photosOfWindows(items: QueueItem[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const { change: c } of items)
    if (c.kind === 'upload' && c.measurementId) n.set(c.measurementId, (n.get(c.measurementId) ?? 0) + 1);
  return n;
}

/** The section: the windows, the form, and "Send to office" with where the quote is. */
export function measureSection(
  j: Job,
  cache: MeasureCache | undefined,
  items: QueueItem[],
  photosWaiting: Map<string, number>,
): string {
  const grids = cache?.grids ?? [];
  if (!grids.length)
    return '<h2>Measurements</h2><p class="card">The price list is not on this phone yet: open this job once with signal.</p>';
  const windows = measuredWindows(cache, items);
  const sentPhotos = (id: string) => j.photos.filter((p) => p.measurement_id === id).length;
  const cards = windows.map((w, i) =>
    windowCard(w, i + 1, grids, { sent: sentPhotos(w.id), waiting: photosWaiting.get(w.id) ?? 0 }),
  );
  const flagged = windows.filter((w) => w.unit_price === null).length;
  const total = windows.reduce((s, w) => s + toMinor(w.unit_price ?? 0, tenantCurrency()), 0);
  const sending = items.some((q) => q.change.kind === 'measure-send');
  const state = sending
    ? 'Waiting to send to the office: it goes when the phone has signal.'
    : cache?.quote_id
      ? 'Sent: the office has the draft quote. Send again after a change to update it.'
      : 'Not sent to the office yet.';
  return `<h2>Measurements</h2>
<p class="muted">${windows.length} window${windows.length === 1 ? '' : 's'}, ${h(formatMoney(total, tenantCurrency()))}${flagged ? `, <span class="err">${flagged} not priced</span>` : ''}.</p>
${cards.length ? `<ul class="plain">${cards.join('')}</ul>` : ''}
${form(grids, j.id)}
<div class="card"><button class="btn" type="button" id="measure-send" ${windows.length ? '' : 'disabled'}>Send to office</button><p id="measure-state" role="status">${h(state)}</p></div>`;
}

/** What the form holds, or what is missing (sizes read as the quote builder reads them). */
export function readForm(root: ParentNode): MeasurementInput | string {
  const v = (id: string) => (root.querySelector<HTMLInputElement>(`#${id}`)?.value ?? '').trim();
  const room = v('mf-room');
  if (!room) return 'Enter the room.';
  const width = measure(v('mf-width'), Number(v('mf-width8')));
  const drop = measure(v('mf-drop'), Number(v('mf-drop8')));
  if (!(width > 0)) return 'Enter the width in whole inches, then the eighths.';
  if (!(drop > 0)) return 'Enter the drop in whole inches, then the eighths.';
  return {
    room,
    product_code: v('mf-product'),
    width_in: width,
    drop_in: drop,
    mount: v('mf-mount') === 'outside' ? 'outside' : 'inside',
    colour: v('mf-colour'),
    options: Array.from(root.querySelectorAll<HTMLInputElement>('[data-measure-option]:checked')).map(
      (i) => i.dataset.measureOption!,
    ),
    notes: v('mf-notes'),
  };
}
