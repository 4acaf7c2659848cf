/**
 * Settings → Payments as HTML: the company's Stripe account in a sentence with its one action
 * (Connect Stripe, or Continue onboarding), and the deposit rule's form (none, a percent, or a fixed
 * amount in the company's currency), errors beside the fields.
 */
import type { PaymentsView } from '@platform/contracts/payments.js';

import { h } from '../shared/dom.js';
import { formatMoney } from '../shared/money.js';
import { errSlot } from './office-common.js';

function accountSentence(v: PaymentsView): string {
  if (!v.available)
    return 'Card payments are not available on this platform yet: your platform operator sets up the payments provider first.';
  switch (v.account.state) {
    case 'connected':
      return 'Charges enabled: customers can pay deposits and invoices by card into your own Stripe account.';
    case 'onboarding':
      return 'Your Stripe account is made but Stripe still needs your business details before it can take payments.';
    default:
      return 'Not connected. Connect your own Stripe account so customers can pay deposits by card; the money goes straight to you.';
  }
}

function accountHtml(v: PaymentsView): string {
  const action =
    !v.available || v.account.state === 'connected'
      ? ''
      : `<div class="row"><button class="btn" type="button" data-pay-connect="1">${v.account.state === 'onboarding' ? 'Continue onboarding at Stripe' : 'Connect Stripe'}</button></div>`;
  const pill = v.account.state === 'not_connected' ? 'not connected' : v.account.state;
  return `<section class="card" aria-labelledby="pay-account-h"><h2 id="pay-account-h" style="margin-top:0">Stripe account</h2>
<p id="pay-state"><span class="pill">${h(pill)}</span> ${h(accountSentence(v))}</p>${action}</section>`;
}

const radio = (kind: string, label: string, checked: boolean) =>
  `<label class="check"><input type="radio" name="deposit-kind" id="deposit-kind-${kind}" value="${kind}"${checked ? ' checked' : ''}> ${label}</label>`;

function ruleHtml(v: PaymentsView): string {
  const r = v.deposit_rule;
  const percent = r.kind === 'percent' ? String(r.percent) : '';
  const fixed =
    r.kind === 'fixed' ? (r.amount_minor / 10 ** minorDigits(v.currency)).toFixed(minorDigits(v.currency)) : '';
  const now =
    r.kind === 'none'
      ? 'No deposit: customers accept quotes without paying.'
      : r.kind === 'percent'
        ? `Customers pay ${r.percent} % of the quote when they accept it.`
        : `Customers pay ${formatMoney(r.amount_minor, v.currency)} when they accept a quote.`;
  return `<section class="card" aria-labelledby="pay-rule-h"><h2 id="pay-rule-h" style="margin-top:0">Deposit on acceptance</h2>
<p id="pay-rule-now">${h(now)}</p>
<form id="deposit-form" novalidate>
<fieldset data-field="kind" aria-describedby="deposit-kind-err"><legend>Deposit</legend>
${radio('none', 'No deposit', r.kind === 'none')}${radio('percent', 'A percentage of the quote', r.kind === 'percent')}${radio('fixed', `A fixed amount (${h(v.currency)})`, r.kind === 'fixed')}
</fieldset>${errSlot('deposit-kind', 'kind')}
<label for="deposit-percent">Percentage (1–100)</label>
<input id="deposit-percent" data-field="percent" inputmode="numeric" value="${h(percent)}" aria-describedby="deposit-percent-err">${errSlot('deposit-percent', 'percent')}
<label for="deposit-amount">Fixed amount in ${h(v.currency)}</label>
<input id="deposit-amount" data-field="amount_minor" inputmode="decimal" value="${h(fixed)}" aria-describedby="deposit-amount-err">${errSlot('deposit-amount', 'amount_minor')}
<div class="row"><button class="btn" type="submit">Save deposit rule</button></div>
</form></section>`;
}

/** The currency's minor digits (2 for USD, 0 for JPY), as Intl knows them. */
export const minorDigits = (currency: string): number =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

export const paymentsHtml = (v: PaymentsView): string => `${accountHtml(v)}${ruleHtml(v)}`;
