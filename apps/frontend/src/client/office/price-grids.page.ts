/**
 * /office/settings/price-grids: pick a product, edit its grid (bands, options, mount allowances) and
 * save it (PUT /sales/price-grids/{code}); the quote builder reads the saved grid the next time it
 * opens. Export downloads the bands as CSV; import fills the table from a CSV file, to be checked and
 * saved. Edits live in the form until Save; adding a band or an option keeps what was typed.
 */
import type { PriceGrid } from '@platform/contracts/window-pricing.js';

import { call } from '../field/api.js';
import { $, h } from '../shared/dom.js';
import { saveFile } from '../shared/save-file.js';
import { clearFieldErrors, say, showFieldErrors, summary } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { gridCsv, parseGridCsv } from './price-grid-csv.js';
import { priceGridsHtml, readGridForm, unreadable } from './price-grids.view.js';
import { sendForm, settingsHead } from './settings-common.js';

let grids: PriceGrid[] = [];
/** The grid on screen, as last drawn (the form holds any edits since). */
let draft: PriceGrid | undefined;

const path = (code: string) => `/sales/price-grids/${encodeURIComponent(code)}`;
const form = () => $<HTMLFormElement>('#grid-form')!;

function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): void {
  app.innerHTML = `${settingsHead('Price grids')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
<p>What the quote builder charges for each product. A saved change is used by the next quote.</p>
${draft ? priceGridsHtml(grids, draft) : '<p>No price grids yet.</p>'}`;
}

/** The form read back into the draft, so a redraw keeps what was typed. */
const keepTyping = () => (draft = readGridForm(form(), draft!));

/** Adds or removes the last width or drop band; a new band is 12 inches past the last and copies its prices. */
function changeBands(kind: string): void {
  const b = keepTyping().bands;
  if (kind === 'add-width') {
    b.widths_in.push((b.widths_in.at(-1) || 0) + 12);
    b.prices.forEach((row) => row.push(row.at(-1) ?? 0));
  } else if (kind === 'add-drop') {
    b.drops_in.push((b.drops_in.at(-1) || 0) + 12);
    b.prices.push([...(b.prices.at(-1) ?? b.widths_in.map(() => 0))]);
  } else if (kind === 'drop-width') {
    b.widths_in.pop();
    b.prices.forEach((row) => row.pop());
  } else if (kind === 'drop-drop') {
    b.drops_in.pop();
    b.prices.pop();
  }
}

function download(g: PriceGrid): void {
  saveFile(`${g.product_code}-price-grid.csv`, gridCsv(g.bands));
}

export const priceGridsPage: OfficePage = {
  async show(app, msg = '') {
    grids = (await call<{ items: PriceGrid[] }>('/sales/price-grids')).items;
    const wanted = new URLSearchParams(location.search).get('product');
    draft = structuredClone(grids.find((g) => g.product_code === wanted) ?? grids[0]);
    draw(app, msg);
  },
  async change(el, app) {
    if (el.id === 'grid-product') {
      draft = structuredClone(grids.find((g) => g.product_code === el.value));
      draw(app, `Editing ${draft?.name ?? ''}.`);
      return $<HTMLSelectElement>('#grid-product')?.focus();
    }
    if (el.id !== 'grid-import' || !(el instanceof HTMLInputElement)) return;
    const file = el.files?.[0];
    if (!file) return;
    const parsed = parseGridCsv(await file.text());
    el.value = ''; // so choosing the same file again, once corrected, reads it again
    if (!parsed.ok) return say(`${file.name}: ${parsed.message} Nothing was changed.`, 'office-msg', 'err');
    draft = { ...keepTyping(), bands: parsed.bands };
    draw(app, `The table is filled from ${file.name}: check it, then Save.`, 'ok');
  },
  async click(b, app) {
    if (!draft) return;
    const { band, addOption, removeOption, export: exporting } = b.dataset;
    if (exporting) return download(keepTyping());
    if (band) changeBands(band);
    else if (addOption) keepTyping().options.push({ code: '', name: '', price: 0 });
    else if (removeOption !== undefined) keepTyping().options.splice(Number(removeOption), 1);
    else return;
    draw(app);
    // Focus stays on the button pressed (redrawn), or on Add an option when a removed row took it away.
    $<HTMLElement>(band ? `[data-band="${band}"]` : '[data-add-option]')?.focus();
  },
  async submit(f, app) {
    if (f.id !== 'grid-form' || !draft) return;
    const grid = keepTyping();
    const bad = unreadable(grid);
    if (bad.length) {
      clearFieldErrors(f);
      say(summary(showFieldErrors(f, bad)), 'office-msg', 'err');
      return f.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
    const { product_code: code, ...body } = grid;
    let saved: PriceGrid | undefined;
    const ok = await sendForm(f, async () => {
      saved = await call<PriceGrid>(path(code), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    });
    if (!ok || !saved) return;
    grids = grids.map((g) => (g.product_code === code ? saved! : g));
    draft = structuredClone(saved);
    draw(app, `${saved.name} saved: the quote builder prices with it from now on.`, 'ok');
  },
};
