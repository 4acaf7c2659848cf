/** The customer's quote, and the one clear page for a link that is expired, revoked or unknown. */
import type { PortalQuoteAnswer, QuoteLine } from '@platform/contracts/quote.js';

import type { Branding } from '../tenancy/branding.service.js';
import { esc } from './html.js';
import { page } from './layout.view.js';

/** The quote as the portal shows it (declared once in @platform/contracts). */
export type PortalQuote = PortalQuoteAnswer['quote'];

/** An amount (major units, as the ERP answers) in the tenant's currency (Settings → Company). */
const moneyIn = (currency: string) => (n: number | null | undefined) =>
  typeof n === 'number' ? n.toLocaleString('en-US', { style: 'currency', currency }) : '';

/** Inches in eighths, as dealers write them: 36 3/8". */
export function inches(v: number | null | undefined): string {
  if (typeof v !== 'number') return '';
  const whole = Math.floor(v);
  const eighths = Math.round((v - whole) * 8);
  if (eighths === 0) return `${whole}″`;
  if (eighths === 8) return `${whole + 1}″`;
  const [n, d] = eighths % 4 === 0 ? [eighths / 4, 2] : eighths % 2 === 0 ? [eighths / 2, 4] : [eighths, 8];
  return `${whole} ${n}/${d}″`;
}

function line(l: QuoteLine, money: ReturnType<typeof moneyIn>): string {
  const opts = l.options.map((o) => o.name);
  const size = typeof l.width_in === 'number' ? `${inches(l.width_in)} × ${inches(l.drop_in)}` : '';
  // The control plane names the product only in the line's description, before the room.
  const product = l.description.split(' – ')[0]?.trim() || l.product_code || '';
  return `<tr><td data-label="Room">${esc(l.room ?? '')}</td><td data-label="Product">${esc(product)}${
    opts.length ? `<div class="muted">${esc(opts.join(', '))}</div>` : ''
  }</td><td data-label="Size">${esc(size)}${l.mount ? `<div class="muted">${esc(l.mount)} mount</div>` : ''}</td><td data-label="Colour">${esc(
    l.colour ?? '',
  )}</td><td data-label="Price">${esc(money(l.subtotal))}</td></tr>`;
}

/** The deposit once accepted, as the control plane read it (`deposit_state`): pay, paid, or the office's. */
function depositBlock(q: PortalQuote, money: ReturnType<typeof moneyIn>): string {
  const amount = esc(money(q.deposit));
  if (q.deposit_state === 'paid') return `<p class="ok" role="status" id="deposit-paid">Deposit paid: thank you.</p>`;
  if (q.deposit_state === 'office')
    return `<p id="deposit-office">Your deposit of ${amount} is due: the office will contact you to arrange it.</p>`;
  if (q.deposit_state !== 'due') return '';
  return `<section class="card" aria-labelledby="dep-h"><h2 id="dep-h">Deposit</h2>
<p>Your deposit of ${amount} is due before we order your blinds. You pay it by card on our payment provider's secure page.</p>
<div class="row"><button class="btn" type="button" id="pay-deposit">Pay deposit</button></div><p id="dep-msg" role="status"></p></section>`;
}

export function quotePage(branding: Branding, q: PortalQuote, token: string, script: string): string {
  // Accepted with a card deposit due, the order is still a quotation until the deposit is paid.
  const accepted = q.accepted !== null || q.state === 'sale' || q.state === 'done';
  const money = moneyIn(branding.currency);
  const body = `<h1>Your quote ${esc(q.name ?? '')}</h1>
<div class="card"><table class="lines"><caption class="visually-hidden">Windows and products</caption>
<thead><tr><th scope="col">Room</th><th scope="col">Product</th><th scope="col">Width × drop</th><th scope="col">Colour</th><th scope="col">Price</th></tr></thead>
<tbody>${q.lines.map((l) => line(l, money)).join('')}</tbody></table>
<dl class="row" style="justify-content:flex-end;gap:1.5rem;margin-top:1rem">
<div><dt class="muted">Subtotal</dt><dd style="margin:0">${esc(money(q.amount_untaxed))}</dd></div>
<div><dt class="muted">Tax</dt><dd style="margin:0">${esc(money(q.amount_tax))}</dd></div>
<div><dt class="muted">Total</dt><dd style="margin:0;font-weight:700">${esc(money(q.amount_total))}</dd></div>
${q.deposit ? `<div><dt class="muted">${q.deposit_state === 'paid' ? 'Deposit paid' : 'Deposit due'}</dt><dd style="margin:0">${esc(money(q.deposit))}</dd></div>` : ''}
</dl>
<p><a class="btn secondary" id="quote-pdf" href="/api/control/portal/quotes/${encodeURIComponent(token)}/pdf" download>Download PDF</a></p></div>
${
  accepted
    ? `<p class="ok" role="status">This quote is accepted. We will be in touch to schedule your installation.</p>
${depositBlock(q, money)}
<section class="card" id="invoices" aria-labelledby="inv-h" hidden><h2 id="inv-h">Your invoices</h2><ul id="invoice-list"></ul></section>`
    : `<section class="card" aria-labelledby="accept-h"><h2 id="accept-h">Accept this quote</h2>
<form id="accept-form" novalidate><label for="acc-name">Your full name</label><input id="acc-name" name="name" autocomplete="name" required maxlength="100">
<p id="sig-label" class="muted">Sign below with your finger or mouse.</p><canvas class="sig" id="acc-sig" role="img" aria-labelledby="sig-label"></canvas>
<div class="row" style="margin-top:.5rem"><button class="btn" type="submit">Accept and sign</button><button class="btn secondary" type="button" id="acc-clear">Clear signature</button></div>
<p id="acc-msg" role="status"></p></form></section>
<section class="card" aria-labelledby="chg-h"><h2 id="chg-h">Ask for changes</h2>
<form id="changes-form" novalidate><label for="chg-note">What would you like changed?</label><textarea id="chg-note" name="note" required maxlength="2000"></textarea>
<div class="row" style="margin-top:.5rem"><button class="btn secondary" type="submit">Send to the office</button></div><p id="chg-msg" role="status"></p></form></section>`
}`;
  return page({
    branding,
    title: `Quote ${q.name ?? ''}`,
    body,
    script,
    dataset: { token, currency: branding.currency, depositState: q.deposit_state },
  });
}

/** Same page for expired, revoked and unknown links: it names no quote, customer or reason. */
export function linkInvalidPage(
  branding: Branding,
  why = 'Quote links expire after a while and can be replaced by a newer one.',
): string {
  const contact = [
    branding.phone ? `call ${esc(branding.phone)}` : '',
    branding.email ? `email ${esc(branding.email)}` : '',
  ]
    .filter(Boolean)
    .join(' or ');
  const body = `<h1>This link no longer works</h1>
<p>${esc(why)} Please use the most recent link we sent you, or ask us for a new one${
    contact ? `: ${contact}` : ''
  }.</p><p><a href="/contact">Contact us</a></p>`;
  return page({ branding, title: 'Link not valid', body });
}
