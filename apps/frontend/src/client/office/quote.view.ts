/** A quote as the office sees it (lines, totals, send and install), and the list of quotes. */
import type { QuoteLine, QuoteView } from '@platform/contracts/quote.js';

import { h, inches } from '../shared/dom.js';
import { errSlot, money, type Technician } from './office-common.js';

export type { QuoteLine };
export type Quote = QuoteView;

export type QuoteSummary = Omit<Quote, 'lines'> & { windows: number };

const STATES: Record<string, string> = {
  draft: 'Draft',
  sent: 'Sent',
  sale: 'Accepted',
  done: 'Done',
  cancel: 'Cancelled',
  pending: 'Waiting for the ERP',
};
export const stateName = (s: string) => STATES[s] ?? s;
const title = (q: { name: string | null }) => q.name ?? 'Quote (not in the ERP yet)';

export function quotesListHtml(items: QuoteSummary[], msg: string): string {
  const rows = items
    .map(
      (q) =>
        `<tr><td data-label="Quote"><a href="/office/quotes/${h(q.id)}">${h(title(q))}</a></td><td data-label="Customer">${h(q.partner?.name ?? '')}</td><td data-label="State">${h(stateName(q.state))}</td><td data-label="Windows">${q.windows}</td><td data-label="Total">${money(q.amount_total)}</td><td data-label="Created">${h(new Date(q.created_at).toLocaleDateString())}</td></tr>`,
    )
    .join('');
  return `<div class="row" style="justify-content:space-between"><h1>Quotes</h1><a class="btn" href="/office/quotes/new">New quote</a></div><p id="office-msg" role="status">${h(msg)}</p>${
    rows
      ? `<table class="lines"><thead><tr><th>Quote</th><th>Customer</th><th>State</th><th>Windows</th><th>Total</th><th>Created</th></tr></thead><tbody>${rows}</tbody></table>`
      : '<p>No quotes yet.</p>'
  }`;
}

function lineRow(l: QuoteLine): string {
  const product = l.description.split('\n')[0] ?? l.description;
  const size = l.width_in && l.drop_in ? `${inches(l.width_in)} × ${inches(l.drop_in)}` : '';
  return `<tr><td data-label="Window">${h(product)}</td><td data-label="Size">${h(size)}</td><td data-label="Mount">${h(l.mount ?? '')}</td><td data-label="Colour">${h(l.colour ?? '')}</td><td data-label="Options">${h(l.options.map((o) => o.name).join(', ') || 'none')}</td><td data-label="Price">${money(l.subtotal)}</td></tr>`;
}

export interface InstallDefaults {
  street: string;
  city: string;
  zip: string;
}

function installForm(a: InstallDefaults, techs: Technician[]): string {
  const input = (k: string, label: string, value: string, attrs = '') =>
    `<div><label for="i-${k}">${label}</label><input id="i-${k}" data-field="address.${k}" value="${h(value)}" aria-describedby="i-${k}-err" ${attrs}>${errSlot(`i-${k}`, `address.${k}`)}</div>`;
  const opts = techs.map((t) => `<option value="${h(t.id)}">${h(t.name)}</option>`).join('');
  const hours = [1, 2, 3, 4, 6, 8].map((n) => `<option value="${n}" ${n === 2 ? 'selected' : ''}>${n} h</option>`);
  return `<form id="install-form" class="card" novalidate hidden><p class="muted">The job carries this quote's windows. Leave the date empty to put it under “Needs scheduling” on the dispatch board.</p><div class="fields">
${input('street', 'Street', a.street, 'autocomplete="street-address"')}${input('city', 'City', a.city, 'autocomplete="address-level2"')}${input('zip', 'ZIP', a.zip, 'autocomplete="postal-code"')}${input('state', 'State (optional)', '', 'autocomplete="address-level1"')}
<div><label for="i-date">Date (optional)</label><input id="i-date" type="date"></div><div><label for="i-time">Start time</label><input id="i-time" type="time" value="09:00"></div>
<div><label for="i-length">Length</label><select id="i-length">${hours.join('')}</select></div>
<div><label for="i-tech">Technician (optional)</label><select id="i-tech" data-field="technician_id" aria-describedby="i-tech-err"><option value="">Decide later</option>${opts}</select>${errSlot('i-tech', 'technician_id')}</div>
</div><p id="install-msg" role="status"></p><button class="btn" type="submit" id="create-job">Create install job</button></form>`;
}

/** Who the quote is for and where: name, email, phone and the site address kept with the quote. */
function customerHtml(q: Quote): string {
  const c = q.customer;
  if (!c) return `<p>${h(q.partner?.name ?? '')}</p>`;
  const address = [c.street, [c.city, c.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const parts = [c.email, c.phone, address].filter(Boolean).map((x) => h(x!));
  return `<p id="q-customer"><strong>${h(c.name || q.partner?.name || '')}</strong>${parts.length ? ` · ${parts.join(' · ')}` : ''}</p>`;
}

/** A quote made on a measuring visit: the windows measured but not priced, for the office to resolve. */
function flaggedHtml(q: Quote): string {
  const visit = q.measure_job_id
    ? `<p class="muted">Made from the <a href="/office/jobs/${h(q.measure_job_id)}">measuring visit</a>.</p>`
    : '';
  if (!q.flagged?.length) return visit;
  const items = q.flagged.map(
    (f) =>
      `<li><strong>${h(f.room)}</strong>: ${h(f.product_code)}, ${h(inches(f.width_in))} × ${h(inches(f.drop_in))}, ${h(f.mount)} mount${f.colour ? `, ${h(f.colour)}` : ''}<br><span class="err">${h(f.reasons.join(' '))}</span></li>`,
  );
  return `${visit}<h2 id="q-flagged-title">Not priced (${q.flagged.length})</h2><p class="muted">Measured on site but outside what the product is made in: not on the order. Resolve them (another product, a split window) before sending.</p><ul class="card" id="q-flagged" aria-labelledby="q-flagged-title">${items.join('')}</ul>`;
}

export function quoteHtml(q: Quote, a: InstallDefaults, techs: Technician[], msg: string): string {
  // A pending quote is sent too: sending makes its ERP order first (a refusal is shown, the quote kept).
  const canSend = q.state === 'draft' || q.state === 'sent' || q.state === 'pending';
  return `<p><a href="/office/quotes">← Quotes</a></p><h1>${h(title(q))} <span class="pill" id="q-state">${h(stateName(q.state))}</span></h1>
${customerHtml(q)}<p id="office-msg" role="status">${h(msg)}</p>
<table class="lines"><thead><tr><th>Window</th><th>Size (W × H)</th><th>Mount</th><th>Colour</th><th>Options</th><th>Price</th></tr></thead><tbody>${q.lines.map(lineRow).join('')}</tbody></table>
${flaggedHtml(q)}<dl class="totals"><dt>Subtotal</dt><dd id="q-untaxed">${money(q.amount_untaxed)}</dd><dt>Tax</dt><dd>${money(q.amount_tax)}</dd><dt>Total</dt><dd id="q-total">${money(q.amount_total)}</dd><dt>Deposit</dt><dd>${money(q.deposit)}</dd></dl>
<p><button class="btn secondary" type="button" id="quote-pdf">Download PDF</button></p>
<h2>Send to the customer</h2>${
    canSend
      ? `<button class="btn" type="button" id="send-quote">Send to customer</button>`
      : `<p class="muted">The quote is ${h(stateName(q.state).toLowerCase())}: only an open quote is sent.</p>`
  }
<div id="portal-link" hidden><label for="portal-url">Portal link for the customer</label><div class="row nowrap"><input id="portal-url" readonly><button class="btn secondary" type="button" id="copy-link">Copy link</button></div><p class="muted" id="portal-expiry"></p></div>
<h2>Install</h2>${
    q.partner && q.sale_order_id
      ? `<button class="btn secondary" type="button" id="open-install" aria-expanded="false" aria-controls="install-form">Schedule install</button>${installForm(a, techs)}`
      : '<p class="muted">The install can be scheduled once the quote is in the ERP (sending it puts it there).</p>'
  }`;
}
