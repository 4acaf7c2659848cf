/**
 * The office's invoices (docs/payments.md, "Final invoice"): the open, overdue and paid tabs with the
 * balance per customer, and one invoice with "Record a payment" and "Resend the pay link". Amounts
 * come in integer minor units of the invoice's currency.
 */
import type {
  InvoiceDetail,
  InvoiceListAnswer,
  InvoiceListState,
  InvoicePaymentView,
  OfficePaymentMethod,
} from '@platform/contracts/invoicing.js';

import { h } from '../shared/dom.js';
import { formatMoney } from '../shared/money.js';
import { errSlot } from './office-common.js';

const TABS: [InvoiceListState, string][] = [
  ['open', 'Open'],
  ['overdue', 'Overdue'],
  ['paid', 'Paid'],
];
const STATE_NAMES: Record<InvoiceListState, string> = { open: 'Open', overdue: 'Overdue', paid: 'Paid' };
const METHODS: [OfficePaymentMethod, string][] = [
  ['cash', 'Cash'],
  ['check', 'Check'],
  ['bank', 'Bank transfer'],
];
const day = (iso: string | null) => (iso ? h(iso) : '—');
const amount = (minor: number, currency: string) => h(formatMoney(minor, currency));
/** The amount as typed in the form: the currency's digits, no symbol or grouping (53.50). */
const plain = (minor: number, currency: string) => formatMoney(minor, currency).replace(/[^0-9.]/g, '');

export function invoicesHtml(v: InvoiceListAnswer, msg = '', kind = ''): string {
  const tabs = TABS.map(
    ([state, label]) =>
      `<a href="/office/invoices?state=${state}"${state === v.state ? ' aria-current="page"' : ''}>${label}</a>`,
  ).join('');
  const rows = v.items
    .map(
      (
        i,
      ) => `<tr><td><a href="/office/invoices/${i.id}">${h(i.number || `#${i.id}`)}</a></td><td data-label="Customer">${h(i.customer.name)}</td>
<td data-label="Date">${day(i.invoice_date)}</td><td data-label="Due">${day(i.due_date)}</td><td class="num" data-label="Total">${amount(i.total_minor, i.currency)}</td><td class="num" data-label="Left to pay">${amount(i.residual_minor, i.currency)}</td></tr>`,
    )
    .join('');
  const table = v.items.length
    ? `<table class="lines" id="invoices-table"><caption class="visually-hidden">${STATE_NAMES[v.state]} invoices</caption><thead><tr><th scope="col">Invoice</th><th scope="col">Customer</th><th scope="col">Date</th><th scope="col">Due</th><th scope="col" class="num">Total</th><th scope="col" class="num">Left to pay</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p id="invoices-empty">No ${STATE_NAMES[v.state].toLowerCase()} invoices.</p>`;
  const balances = v.balances.length
    ? `<h2>Balance per customer</h2><ul class="plain" id="invoice-balances">${v.balances
        .map((b) => `<li>${h(b.customer.name)}: <strong>${amount(b.residual_minor, b.currency)}</strong></li>`)
        .join('')}</ul>`
    : '';
  return `<h1>Invoices</h1><p id="office-msg" role="status" class="${h(kind)}">${h(msg)}</p>
<nav aria-label="Invoice states" class="row settings-tabs">${tabs}</nav>${table}${balances}`;
}

/** Suggests what is left to refund of the card payment (the API refuses more). */
function refundForm(p: InvoicePaymentView, currency: string): string {
  const left = plain(p.refundable_minor, currency);
  return `<form class="refund-form row" data-payment="${p.id}" novalidate><label for="refund-${p.id}">Refund (${h(currency)}; ${h(left)} left to refund)</label><input id="refund-${p.id}" data-field="amount_minor" inputmode="decimal" aria-describedby="refund-${p.id}-err" value="${h(left)}"><button class="btn secondary" type="submit">Refund to the card</button>${errSlot(`refund-${p.id}`, 'amount_minor')}</form>`;
}

function paymentsHtml(i: InvoiceDetail, canRefund: boolean): string {
  if (!i.payments.length) return '';
  const items = i.payments
    .map((p) => {
      const refund =
        !canRefund || !p.card ? '' : p.refundable_minor > 0 ? refundForm(p, i.currency) : '<p>Refunded in full.</p>';
      return `<li class="card"><p>${day(p.date)}: <strong>${amount(p.amount_minor, i.currency)}</strong> · ${h(p.memo)}</p>${refund}</li>`;
    })
    .join('');
  return `<h2>Payments</h2><ul class="plain" id="invoice-payments">${items}</ul>`;
}

/** `canRefund`: owners and admins may refund a card payment (the API refuses others). */
export function invoiceHtml(i: InvoiceDetail, msg = '', kind = '', canRefund = false): string {
  const due = i.residual_minor > 0;
  const pay = due
    ? `<h2>Record a payment</h2><form id="invoice-payment" class="card" novalidate>
<label for="pay-amount">Amount (${h(i.currency)})</label><input id="pay-amount" data-field="amount_minor" inputmode="decimal" aria-describedby="pay-amount-err" value="${h(plain(i.residual_minor, i.currency))}" required>${errSlot('pay-amount', 'amount_minor')}
<label for="pay-method">Method</label><select id="pay-method" data-field="method">${METHODS.map(([v, l]) => `<option value="${v}">${l}</option>`).join('')}</select>
<label for="pay-memo">Note (optional)</label><input id="pay-memo" data-field="memo" maxlength="100" aria-describedby="pay-memo-err">${errSlot('pay-memo', 'memo')}
<div class="row" style="margin-top:.5rem"><button class="btn" type="submit" id="pay-record">Record payment</button></div></form>
<h2>Pay link</h2><p>The customer can pay what is left by card from the link emailed with the invoice.</p><p><button class="btn secondary" type="button" id="invoice-send">Resend the pay link</button></p>`
    : '<p id="invoice-paid">Paid in full.</p>';
  return `<p><a href="/office/invoices">← Invoices</a></p><h1>Invoice ${h(i.number || `#${i.id}`)}</h1>
<p id="office-msg" role="status" class="${h(kind)}">${h(msg)}</p>
<dl class="invoice-facts"><dt>Customer</dt><dd>${h(i.customer.name)}</dd><dt>Order</dt><dd>${h(i.sale_order ?? '—')}</dd>
<dt>Date</dt><dd>${day(i.invoice_date)}</dd><dt>Due</dt><dd>${day(i.due_date)}</dd>
<dt>Total</dt><dd>${amount(i.total_minor, i.currency)}</dd><dt>Left to pay</dt><dd id="invoice-residual"><strong>${amount(i.residual_minor, i.currency)}</strong></dd>
<dt>State</dt><dd>${STATE_NAMES[i.state]}</dd></dl>
<p><button class="btn secondary" type="button" id="invoice-pdf">Download PDF</button></p>${pay}${paymentsHtml(i, canRefund)}`;
}
