import type { CheckoutSession } from '@platform/providers';
import { describe, expect, it } from 'vitest';

import type { DepositRow } from './deposit.repo.js';
import { ignoredReason } from './deposit-paid.js';

const T = '00000000-0000-4000-8000-00000000000a';
const Q = '00000000-0000-4000-8000-0000000000a1';
const row: DepositRow = {
  tenant_id: T,
  quote_id: Q,
  account_id: 'acct_a',
  session_id: 'cs_test_1',
  checkout_url: 'https://pay.example/c/pay/cs_test_1',
  amount_minor: 13_550,
  currency: 'USD',
  status: 'open',
  paid_at: null,
  method: 'card',
  reference: null,
  payment_intent_id: null,
  sale_order_id: null,
  invoice_id: null,
  erp_payment_id: null,
  erp_recorded_at: null,
};
const session: CheckoutSession = {
  sessionId: 'cs_test_1',
  accountId: 'acct_a',
  url: null,
  status: 'complete',
  paymentStatus: 'paid',
  paymentIntentId: 'pi_1',
  metadata: { tenantId: T, kind: 'deposit', ref: Q },
  createdAt: new Date(0),
  amountMinor: 13_550,
  currency: 'USD',
};

describe("a completed checkout against the tenant's deposit row", () => {
  it('pays the row when everything is what the platform asked', () => {
    expect(ignoredReason(session, T, row)).toBeNull();
  });

  it('ignores an amount or currency other than the one asked', () => {
    expect(ignoredReason({ ...session, amountMinor: 100 }, T, row)).toBe('amount_mismatch');
    expect(ignoredReason({ ...session, currency: 'CAD' }, T, row)).toBe('amount_mismatch');
  });

  it("refuses another tenant's session, another account's, and an unknown one", () => {
    const other = { ...session, metadata: { ...session.metadata!, tenantId: '00000000-0000-4000-8000-00000000000b' } };
    expect(ignoredReason(other, T, row)).toBe('other_tenant');
    expect(ignoredReason({ ...session, accountId: 'acct_b' }, T, row)).toBe('other_account');
    expect(ignoredReason(session, T, undefined)).toBe('unknown_session');
    expect(ignoredReason({ ...session, metadata: { ...session.metadata!, ref: 'x' } }, T, row)).toBe('unknown_session');
  });

  it('ignores an unpaid session and one that is not a deposit', () => {
    expect(ignoredReason({ ...session, paymentStatus: 'unpaid' }, T, row)).toBe('not_paid');
    expect(ignoredReason({ ...session, metadata: { ...session.metadata!, kind: 'invoice' } }, T, row)).toBe(
      'not_a_deposit',
    );
  });
});
