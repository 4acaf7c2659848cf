/**
 * /office/settings/payments: the company's Stripe account (GET /api/tenants/{id}/payments) and its
 * deposit rule. "Connect Stripe" asks the control plane for an onboarding URL and goes there in this
 * tab; Stripe sends the owner back here, where the account shows "Charges enabled".
 */
import type { DepositRule, PaymentsConnectOutcome, PaymentsView } from '@platform/contracts/payments.js';

import { call, postJson } from '../field/api.js';
import { $, h } from '../shared/dom.js';
import { toMinor } from '../shared/money.js';
import { say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { paymentsHtml } from './payments.view.js';
import { refusal, sendForm, settingsHead, tenantApi } from './settings-common.js';

const api = (rest = '') => tenantApi(`/payments${rest}`);
let currency = 'USD';

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  const v = await call<PaymentsView>(await api());
  currency = v.currency;
  app.innerHTML = `${settingsHead('Payments')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
<p>Customers pay by card on Stripe’s own page; card details never reach this platform.</p>${paymentsHtml(v)}`;
}

/** The form as the API takes it; a blank or unreadable number is sent as such, for the API to name. */
function rule(): DepositRule | { kind: string } {
  const kind = $<HTMLInputElement>('input[name="deposit-kind"]:checked')?.value ?? '';
  const raw = (id: string) => $<HTMLInputElement>(`#${id}`)!.value.trim().replace(/,/g, '');
  if (kind === 'percent')
    return { kind, percent: raw('deposit-percent') === '' ? NaN : Number(raw('deposit-percent')) };
  if (kind === 'fixed') {
    const major = raw('deposit-amount') === '' ? NaN : Number(raw('deposit-amount'));
    return { kind, amount_minor: Number.isFinite(major) ? toMinor(major, currency) : major };
  }
  return { kind };
}

export const paymentsPage: OfficePage = {
  async show(app, msg = '') {
    await draw(app, msg);
  },
  async submit(form, app) {
    if (form.id !== 'deposit-form') return;
    const body = rule();
    const put = async () =>
      void (await call(await api('/deposit-rule'), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        // NaN becomes null in JSON: the API then says the field needs a number.
        body: JSON.stringify(body),
      }));
    if (await sendForm(form, put)) await draw(app, 'Deposit rule saved.', 'ok');
  },
  async click(b) {
    if (!b.dataset.payConnect) return;
    try {
      b.disabled = true;
      const out = await postJson<PaymentsConnectOutcome>(await api('/connect'), {});
      location.assign(out.onboarding_url);
    } catch (e) {
      b.disabled = false;
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
