/**
 * The measuring form's behaviour: live pricing while the size is typed (flagged on the spot when
 * the product cannot be made that size), filling it to edit a window, keeping what is typed across
 * the re-renders a sync causes, and turning a save, a removal or "Send to office" into queued
 * changes (sync.ts sends them in order, by the window's own id).
 */
import { priceMeasurement } from '@platform/contracts/measurement.js';

import { $, h } from '../shared/dom.js';
import { splitInches } from '../shared/inch-input.js';
import { formatMoney, tenantCurrency, toMinor } from '../shared/money.js';
import { measuredWindows, optionChecks, readForm } from './measure.view.js';
import type { Change, MeasureCache, QueueItem } from './types.js';

/** Shows the window's price as it is typed, or why it cannot be priced (naming the product's limits). */
export function repriceForm(root: HTMLElement, cache: MeasureCache | undefined): void {
  const out = $('#mf-price', root);
  const flags = $('#mf-flags', root);
  if (!out || !flags) return;
  const m = readForm(root);
  if (typeof m === 'string') {
    out.textContent = '–';
    flags.innerHTML = '';
    return;
  }
  const priced = priceMeasurement(
    cache?.grids.find((g) => g.product_code === m.product_code),
    m,
  );
  out.textContent = priced.line
    ? formatMoney(toMinor(priced.line.unit_price, tenantCurrency()), tenantCurrency())
    : 'Not priced';
  flags.innerHTML = priced.flags.map((f) => `<p class="err">${h(f.message)}</p>`).join('');
}

/** The options of the product now chosen, keeping the ticks of those it also has. */
export function productChanged(root: HTMLElement, cache: MeasureCache | undefined): void {
  const code = $<HTMLSelectElement>('#mf-product', root)?.value;
  const ticked = Array.from(root.querySelectorAll<HTMLInputElement>('[data-measure-option]:checked')).map(
    (i) => i.dataset.measureOption!,
  );
  $('#mf-options', root)!.innerHTML = optionChecks(
    cache?.grids.find((g) => g.product_code === code),
    ticked,
  );
}

type Fields = [string, string | boolean][];

/** Puts values into the form (a window being edited). */
function fillForm(root: HTMLElement, cache: MeasureCache | undefined, fields: Fields | undefined): void {
  if (!fields || !$('#measure-form', root)) return;
  const set = (id: string, v: string | boolean) => {
    const i = document.getElementById(id) as HTMLInputElement | null;
    if (!i) return;
    if (typeof v === 'boolean') i.checked = v;
    else i.value = v;
  };
  const product = fields.find(([id]) => id === 'mf-product');
  if (product) set(...product);
  productChanged(root, cache);
  for (const [id, v] of fields) set(id, v);
  if ($<HTMLInputElement>('#mf-id', root)?.value) $('#mf-title', root)!.textContent = 'Edit window';
  repriceForm(root, cache);
}

/** Fills the form with a window to edit it. */
export function editWindow(root: HTMLElement, cache: MeasureCache | undefined, items: QueueItem[], id: string): void {
  const w = measuredWindows(cache, items).find((x) => x.id === id);
  if (!w) return;
  const w8 = splitInches(w.width_in);
  const d8 = splitInches(w.drop_in);
  const fields: Fields = [
    ['mf-id', w.id],
    ['mf-room', w.room],
    ['mf-product', w.product_code],
    ['mf-width', w8.whole],
    ['mf-width8', String(w8.eighths)],
    ['mf-drop', d8.whole],
    ['mf-drop8', String(d8.eighths)],
    ['mf-mount', w.mount],
    ['mf-colour', w.colour],
    ['mf-notes', w.notes],
    ...w.options.map((o): [string, boolean] => [`mf-opt-${o}`, true]),
  ];
  fillForm(root, cache, fields);
  (document.getElementById('mf-notes') as HTMLTextAreaElement).value = w.notes;
  $('#mf-room', root)?.focus();
}

/** The change a save makes (a new window gets its id here), or what is missing. */
export function saveChange(root: HTMLElement, newId: () => string): Change | string {
  const m = readForm(root);
  if (typeof m === 'string') return m;
  const id = $<HTMLInputElement>('#mf-id', root)?.value || newId();
  return { kind: 'measure', id, m };
}

export function clearForm(root: HTMLElement, cache: MeasureCache | undefined): void {
  $<HTMLFormElement>('#measure-form', root)?.reset();
  ($('#mf-id', root) as HTMLInputElement | null)?.setAttribute('value', '');
  const id = $<HTMLInputElement>('#mf-id', root);
  if (id) id.value = '';
  const title = $('#mf-title', root);
  if (title) title.textContent = 'Add a window';
  productChanged(root, cache);
  repriceForm(root, cache);
}
