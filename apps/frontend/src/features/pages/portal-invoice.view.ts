/**
 * The customer's invoice from the emailed pay link (docs/payments.md, "Final invoice"): its lines,
 * the deposit deducted, what is left to pay and "Pay" (card, on the provider's page). Amounts come
 * in integer minor units of the invoice's currency.
 */
import type { PortalInvoiceAnswer } from '@platform/contracts/invoicing.js';
import { formatMoney } from '@platform/contracts/money.js';

import type { Branding } from '../tenancy/branding.service.js';
import { esc } from './html.js';
import { page } from './layout.view.js';

export type PortalInvoice = PortalInvoiceAnswer['invoice'];

function payBlock(i: PortalInvoice, due: string, outcome: string | undefined): string {
  if (i.pay_state === 'paid') return `<p class="ok" role="status" id="invoice-paid">Paid in full: thank you.</p>`;
  if (i.pay_state === 'processing')
    return `<p class="ok" role="status" id="payment-received">Thank you: your payment of ${due} is received and being recorded.</p>`;
  const back =
    outcome === 'paid'
      ? `<p class="ok" role="status" id="payment-received">Thank you: your payment is being recorded. This page shows it as paid in a moment.</p>`
      : '';
  if (i.pay_state === 'office')
    return `${back}<p id="invoice-office">${due} is due: the office will contact you to arrange payment.</p>`;
  return `${back}<section class="card" aria-labelledby="pay-h"><h2 id="pay-h">Pay your invoice</h2>
<p>${due} is left to pay. You pay it by card on our payment provider's secure page.</p>
<div class="row"><button class="btn" type="button" id="pay-invoice">Pay ${due}</button></div><p id="pay-msg" role="status"></p></section>`;
}

export function invoicePayPage(
  branding: Branding,
  i: PortalInvoice,
  token: string,
  script: string,
  outcome?: string,
): string {
  const money = (minor: number) => esc(formatMoney(minor, i.currency));
  // The invoice's total already has the deposit taken off: the work is both together.
  const work = i.total_minor + i.deposit_deducted_minor;
  const paidSince = i.total_minor - i.residual_minor;
  const rows = i.lines
    .map(
      (l) =>
        `<tr><td data-label="Item">${esc(l.description)}</td><td data-label="Quantity">${esc(String(l.quantity))}</td><td data-label="Amount">${money(l.subtotal_minor)}</td></tr>`,
    )
    .join('');
  const body = `<h1>Your invoice ${esc(i.number)}</h1>
<div class="card"><table class="lines"><caption class="visually-hidden">Invoice lines</caption>
<thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th scope="col">Amount</th></tr></thead><tbody>${rows}</tbody></table>
<dl class="row" style="justify-content:flex-end;gap:1.5rem;margin-top:1rem">
<div><dt class="muted">Work, tax included</dt><dd style="margin:0">${money(work)}</dd></div>
${i.deposit_deducted_minor ? `<div><dt class="muted">Deposit paid</dt><dd style="margin:0" id="deposit-deducted">−${money(i.deposit_deducted_minor)}</dd></div>` : ''}
${paidSince > 0 ? `<div><dt class="muted">Paid since</dt><dd style="margin:0" id="paid-since">−${money(paidSince)}</dd></div>` : ''}
<div><dt class="muted">Amount due</dt><dd style="margin:0;font-weight:700" id="amount-due">${money(i.residual_minor)}</dd></div>
</dl><p class="muted">This invoice: ${money(i.untaxed_minor)} before tax, ${money(i.tax_minor)} tax, ${money(i.total_minor)} in all after the deposit.</p>${i.due_date ? `<p class="muted">Due by ${esc(i.due_date)}.</p>` : ''}</div>
${payBlock(i, money(i.residual_minor), outcome)}`;
  return page({ branding, title: `Invoice ${i.number}`, body, script, dataset: { token, currency: i.currency } });
}
