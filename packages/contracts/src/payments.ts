/**
 * The tenant's payments settings as the control plane answers them and the console shows them
 * (docs/payments.md, "Connecting a tenant's account", "Deposit rule").
 */
export type DepositRuleKind = 'none' | 'percent' | 'fixed';

/** Percent in whole percent (1–100); fixed in integer minor units of the tenant's currency. */
export type DepositRule =
  { kind: 'none' } | { kind: 'percent'; percent: number } | { kind: 'fixed'; amount_minor: number };

/** The most a fixed deposit may be, in minor units (100 000.00 in the tenant's currency). */
export const DEPOSIT_FIXED_MAX_MINOR = 10_000_000;

/** GET /api/tenants/{id}/payments. */
export interface PaymentsView {
  /** False when the platform has no payments provider configured (connect is refused). */
  available: boolean;
  account: {
    /** `not_connected`: never started; `onboarding`: details still owed; `connected`: charges enabled. */
    state: 'not_connected' | 'onboarding' | 'connected';
    account_id: string | null;
    charges_enabled: boolean;
    details_submitted: boolean;
    connected_at: string | null;
    updated_at: string | null;
  };
  deposit_rule: DepositRule;
  /** ISO 4217 (the tenant's settings): the fixed amount is in it. */
  currency: string;
}

/** POST /api/tenants/{id}/payments/connect. */
export interface PaymentsConnectOutcome {
  onboarding_url: string;
  account_id: string;
}
