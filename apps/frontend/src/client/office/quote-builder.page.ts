/**
 * /office/quotes/new: a quote built from the tenant's price grids (GET /sales/price-grids). Each window
 * prices itself while it is measured, with the control plane's own rules (window-pricing.js), and
 * "Create quote" posts it (POST /sales/quotes) with one Idempotency-Key per form fill, so a resend
 * after a lost answer makes one quote. Opened from a lead (`?lead=`), the customer (name, email,
 * phone, address, ZIP) comes from it and the quote names the lead, so the lead's stage follows it.
 */
import { type QuoteTaxes, quoteTotals, taxesOf } from '@platform/contracts/quote-tax.js';
import { type PriceGrid, priceLine, type WindowLine } from '@platform/contracts/window-pricing.js';

import { call, OfflineError, postJson } from '../field/api.js';
import { $, uuid } from '../shared/dom.js';
import { measure } from '../shared/inch-input.js';
import type { Lead } from './leads.view.js';
import { clearFieldErrors, explain, fieldProblems, money, say, showFieldErrors, summary } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { builderHtml, type CustomerFields, optionsHtml, rowHtml, type WindowRow } from './quote-builder.view.js';

let grids: PriceGrid[] = [];
/** The ERP's taxes per product code (GET /sales/taxes): the builder's tax is the ERP order's, to the cent. */
let taxes: QuoteTaxes = { default: [], products: {} };
let rows: WindowRow[] = [];
let customer: CustomerFields = { name: '', email: '', phone: '', street: '', city: '', zip: '' };
let formKey = '';
/** The lead the quote is made for (its stage follows the quote). */
let leadId: number | undefined;

const blankRow = (): WindowRow => ({
  room: '',
  product_code: grids[0]?.product_code ?? '',
  width: '',
  width8: 0,
  drop: '',
  drop8: 0,
  mount: 'inside',
  colour: '',
  options: [],
});

const toLine = (r: WindowRow): WindowLine => ({
  product_code: r.product_code,
  room: r.room.trim(),
  width_in: measure(r.width, r.width8),
  drop_in: measure(r.drop, r.drop8),
  mount: r.mount,
  colour: r.colour.trim(),
  options: r.options,
});

/** Prices every window as the server will and shows each price, how it was read, and the subtotal. */
function reprice(app: HTMLElement): void {
  let cents = 0;
  let priced = 0;
  const pricedLines: { product_code: string; subtotal: number }[] = [];
  rows.forEach((r, i) => {
    const out = $(`#l${i}-price`, app)!;
    const how = $(`#l${i}-how`, app)!;
    const line = toLine(r);
    const grid = grids.find((g) => g.product_code === r.product_code);
    // The sizes' messages are this function's (a server 422 on a size is stale once the size changes).
    for (const k of ['width', 'drop']) {
      $(`[data-err-for="lines.${i}.${k}_in"]`, app)!.textContent = '';
      $(`#l${i}-${k}`, app)!.removeAttribute('aria-invalid');
    }
    if (Number.isNaN(line.width_in) || Number.isNaN(line.drop_in)) {
      [out.textContent, how.textContent] = ['–', 'Type whole inches; pick the fraction from Eighths.'];
      return;
    }
    if (!grid || !(line.width_in > 0) || !(line.drop_in > 0)) {
      [out.textContent, how.textContent] = ['–', 'Enter the width and the drop.'];
      return;
    }
    const r2 = priceLine(grid, line, `lines.${i}`);
    if (!r2.ok) {
      showFieldErrors(app, r2.issues);
      [out.textContent, how.textContent] = ['–', 'Not priced: check the sizes.'];
      return;
    }
    const l = r2.line;
    cents += Math.round(l.unit_price * 100);
    priced++;
    pricedLines.push({ product_code: r.product_code, subtotal: l.unit_price });
    out.textContent = money(l.unit_price);
    how.textContent = `Grid band ${l.band.width_in}″ × ${l.band.drop_in}″: ${money(l.base_price)}${l.option_lines
      .map((o) => ` + ${o.name} ${money(o.price)}`)
      .join('')}${l.mount === 'outside' ? ` (outside mount: +${grid.mount_allowance_in.outside}″)` : ''}`;
  });
  $('#subtotal', app)!.textContent = money(cents / 100);
  const totals = quoteTotals(taxes, pricedLines);
  $('#tax', app)!.textContent = money(totals.tax);
  $('#total', app)!.textContent = money(totals.total);
  const names = [...new Set(rows.flatMap((r) => taxesOf(taxes, r.product_code).map((t) => `${t.name} ${t.amount}%`)))];
  $('#tax-names', app)!.textContent = names.length ? `(${names.join(', ')})` : '(no sales tax in the ERP)';
  $('#priced-count', app)!.textContent = `(${priced} of ${rows.length} windows priced)`;
}

function drawRows(app: HTMLElement): void {
  $('#rows', app)!.innerHTML = rows.map((r, i) => rowHtml(i, r, grids)).join('');
  reprice(app);
}

function body() {
  const who = Object.fromEntries(
    Object.entries(customer)
      .filter(([, v]) => v.trim())
      .map(([k, v]) => [k, v.trim()]),
  );
  return { customer: who, lines: rows.map(toLine), ...(leadId ? { lead_id: leadId } : {}) };
}

async function prefillFromLead(id: string): Promise<string> {
  const lead = await call<Lead>(`/crm/leads/${encodeURIComponent(id)}`).catch(() => undefined);
  if (!lead) return 'The lead could not be read: fill in the customer.';
  leadId = lead.id;
  customer = {
    ...customer,
    name: lead.contact_name ?? lead.name,
    email: lead.email ?? '',
    phone: lead.phone ?? '',
    street: lead.street ?? '',
    city: lead.city ?? '',
    zip: lead.zip ?? '',
  };
  return `For the lead “${lead.name}”.`;
}

export const quoteBuilderPage: OfficePage = {
  async show(app) {
    grids = (await call<{ items: PriceGrid[] }>('/sales/price-grids')).items;
    // Without the ERP's taxes the builder still prices; the quote's own totals are the ERP's.
    taxes = await call<QuoteTaxes>('/sales/taxes').catch(() => ({ default: [], products: {} }));
    customer = { name: '', email: '', phone: '', street: '', city: '', zip: '' };
    rows = [blankRow()];
    formKey = uuid();
    leadId = undefined;
    const lead = new URLSearchParams(location.search).get('lead');
    const intro = lead ? await prefillFromLead(lead) : '';
    // A lead's quote is priced as its branch prices (the branch's own grids, where it has them).
    if (leadId)
      grids = (await call<{ items: PriceGrid[] }>(`/sales/price-grids?zip=${encodeURIComponent(customer.zip)}`)).items;
    app.innerHTML = builderHtml(customer, rows, grids, intro);
    reprice(app);
  },
  input(el, app) {
    const k = el.dataset.customer as keyof CustomerFields | undefined;
    if (k) customer[k] = el.value;
    const i = Number(el.dataset.row);
    const row = rows[i];
    if (!row) return;
    if (el instanceof HTMLInputElement && el.type === 'checkbox') {
      const code = el.dataset.option!;
      row.options = row.options.filter((c) => c !== code).concat(el.checked ? [code] : []);
    } else if (el.dataset.key) {
      const key = el.dataset.key as keyof WindowRow;
      (row as unknown as Record<string, unknown>)[key] = key.endsWith('8') ? Number(el.value) : el.value;
      if (key === 'product_code') {
        row.options = [];
        $(`#l${i}-options`, app)!.innerHTML = optionsHtml(
          i,
          grids.find((g) => g.product_code === el.value),
          [],
        );
      }
    }
    reprice(app);
  },
  async click(b, app) {
    if (b.id === 'add-row') {
      rows.push(blankRow());
      drawRows(app);
      $<HTMLInputElement>(`#l${rows.length - 1}-room`, app)!.focus();
    }
    if (b.dataset.removeRow) {
      rows.splice(Number(b.dataset.removeRow), 1);
      if (!rows.length) rows.push(blankRow());
      drawRows(app);
      $<HTMLButtonElement>('#add-row', app)!.focus();
    }
  },
  async submit(form, app) {
    if (form.id !== 'quote-form') return;
    clearFieldErrors(app);
    say('Creating the quote…');
    const button = $<HTMLButtonElement>('#create-quote', app)!;
    button.disabled = true;
    try {
      const q = await postJson<{ id: string }>('/sales/quotes', body(), { 'idempotency-key': formKey });
      location.assign(`/office/quotes/${encodeURIComponent(q.id)}?created=1`);
    } catch (e) {
      button.disabled = false;
      const problems = fieldProblems(e);
      if (!problems.length)
        return say(
          e instanceof OfflineError ? `${explain(e)} (The same quote is not made twice.)` : explain(e),
          'office-msg',
          'err',
        );
      say(summary(showFieldErrors(app, problems)), 'office-msg', 'err');
      const first = app.querySelector<HTMLElement>('[aria-invalid="true"]');
      first?.focus();
    }
  },
};
