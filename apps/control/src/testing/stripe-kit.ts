/**
 * The control plane with the local Stripe stand-in (the payments and invoicing tests): pointed at it
 * with its own keys, its webhooks delivered to the control plane, and tenant A's account connected
 * through the stand-in's onboarding page (B never connects).
 */
import { randomBytes } from 'node:crypto';

import { type RunningLocalStripe, startLocalStripe } from '@platform/providers/local';
import { expect } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from './crm-sales-kit.js';

export interface StripeKit {
  k: CrmSalesKit;
  stripe: RunningLocalStripe;
  key: string;
  accountA: string;
  close(): Promise<void>;
}

export async function startWithStripe(): Promise<StripeKit> {
  const key = `sk_test_${randomBytes(12).toString('hex')}`;
  const whsec = `whsec_${randomBytes(16).toString('hex')}`;
  const stripe = await startLocalStripe({ secretKey: key, host: '127.0.0.1', port: 0 });
  const k = await startCrmSalesKit({
    STRIPE_SECRET_KEY: key,
    STRIPE_API_BASE: stripe.url,
    STRIPE_WEBHOOK_SECRET: whsec,
    TENANT_PUBLIC_ORIGIN: 'https://{host}',
  });
  const url = await k.kit.app.listen({ host: '127.0.0.1', port: 0 });
  stripe.addWebhookEndpoint(`${url}/webhooks/payments`, { connect: true, secret: whsec });
  const c = await k.call('POST', `/api/tenants/${k.a.id}/payments/connect`, k.a.owner);
  const done = await fetch(c.body.onboarding_url as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ business_name: 'Acme Blinds' }).toString(),
    redirect: 'manual',
  });
  expect(done.status).toBe(303);
  expect((await k.call('GET', `/api/tenants/${k.a.id}/payments`, k.a.owner)).body.account.state).toBe('connected');
  const close = async () => {
    await k.close();
    await stripe.close();
  };
  return { k, stripe, key, accountA: c.body.account_id as string, close };
}
