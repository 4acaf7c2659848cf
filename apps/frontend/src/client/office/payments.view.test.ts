/** Settings → Payments as HTML: the account's sentence and action per state, the rule in the currency's own digits. */
import type { PaymentsView } from '@platform/contracts/payments.js';
import { describe, expect, it } from 'vitest';

import { minorDigits, paymentsHtml } from './payments.view.js';

const base: PaymentsView = {
  available: true,
  account: {
    state: 'not_connected',
    account_id: null,
    charges_enabled: false,
    details_submitted: false,
    connected_at: null,
    updated_at: null,
  },
  deposit_rule: { kind: 'percent', percent: 50 },
  currency: 'USD',
};
const connected: PaymentsView['account'] = {
  ...base.account,
  state: 'connected',
  account_id: 'acct_1',
  charges_enabled: true,
  details_submitted: true,
};

describe('paymentsHtml', () => {
  it('offers Connect Stripe until charges are enabled, and nothing to press once they are', () => {
    expect(paymentsHtml(base)).toContain('>Connect Stripe</button>');
    const onboarding = paymentsHtml({ ...base, account: { ...base.account, state: 'onboarding' } });
    expect(onboarding).toContain('Continue onboarding at Stripe');
    const done = paymentsHtml({ ...base, account: connected });
    expect(done).toContain('Charges enabled');
    expect(done).not.toContain('data-pay-connect');
  });

  it('offers no connect when the platform has no payments provider', () => {
    const html = paymentsHtml({ ...base, available: false });
    expect(html).toContain('not available on this platform yet');
    expect(html).not.toContain('data-pay-connect');
  });

  it('shows a fixed deposit in the currency, with its own minor digits', () => {
    const usd = paymentsHtml({ ...base, deposit_rule: { kind: 'fixed', amount_minor: 25_050 } });
    expect(usd).toContain('Customers pay $250.50 when they accept a quote.');
    expect(usd).toContain('id="deposit-amount" data-field="amount_minor" inputmode="decimal" value="250.50"');
    expect(usd).toMatch(/id="deposit-kind-fixed" value="fixed" checked/);
    const jpy = paymentsHtml({ ...base, currency: 'JPY', deposit_rule: { kind: 'fixed', amount_minor: 20_000 } });
    expect(jpy).toContain('value="20000"');
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('EUR')).toBe(2);
  });

  it('says when no deposit is asked', () => {
    expect(paymentsHtml({ ...base, deposit_rule: { kind: 'none' } })).toContain('No deposit: customers accept quotes');
  });
});
