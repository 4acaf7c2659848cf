/**
 * `npm start`'s embedded defaults include the Stripe stand-in: its URL, key and webhook secret are in
 * the services' environment, the payments adapter works against it with them, the payments flow's
 * webhook path receives signed Connect events, and a restart keeps the same key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { stripePaymentsAdapters } from '@platform/providers';
import { startWebhookReceiver } from '@platform/providers/payments/payments.test-helpers.js';
import { afterAll, describe, expect, it } from 'vitest';

import { startLocalProviders } from './local-providers.js';
import { loadPlatformConfig } from './platform.config.js';

const dataDir = mkdtempSync(join(tmpdir(), 'local-payments-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the local Stripe stand-in on embedded defaults', () => {
  it('is reachable with the env it puts in place and delivers signed events to the registered path', async () => {
    const hook = await startWebhookReceiver();
    const local = (await startLocalProviders(loadPlatformConfig({ DATA_DIR: dataDir })))!;
    try {
      const { STRIPE_API_BASE, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } = local.env;
      expect(STRIPE_API_BASE).toBe(local.payments!.url);
      expect(STRIPE_SECRET_KEY).toMatch(/^sk_test_/);
      await local.bind(new URL(hook.url).origin);
      expect(local.registerStripeWebhook(new URL(hook.url).pathname)).toBe(true);

      const payments = stripePaymentsAdapters({
        secretKey: STRIPE_SECRET_KEY!,
        apiBase: STRIPE_API_BASE!,
        maxNetworkRetries: 0,
      });
      const account = await payments.api.createAccount({ tenantId: 'default', type: 'express' });
      const link = await payments.api.createOnboardingLink({
        accountId: account.accountId,
        refreshUrl: 'http://x.test/r',
        returnUrl: 'http://x.test/ok',
      });
      await fetch(link.url, {
        method: 'POST',
        body: new URLSearchParams({ business_name: 'Default Blinds' }),
        redirect: 'manual',
      });
      await local.payments!.flushWebhooks();
      const verified = payments.webhookVerifier([STRIPE_WEBHOOK_SECRET!]).verify({
        headers: { 'stripe-signature': hook.received[0]!.signature },
        rawBody: hook.received[0]!.body,
      });
      expect(verified).toMatchObject({ ok: true, envelope: { accountId: account.accountId, type: 'account.updated' } });
    } finally {
      await local.close();
      await hook.close();
    }
    const again = (await startLocalProviders(loadPlatformConfig({ DATA_DIR: dataDir })))!;
    expect(again.env.STRIPE_SECRET_KEY).toBe(local.env.STRIPE_SECRET_KEY);
    await again.close();
  });

  it('stays off when the operator configured Stripe', async () => {
    const local = await startLocalProviders(
      loadPlatformConfig({ DATA_DIR: dataDir, STRIPE_SECRET_KEY: 'sk_live_x', SMS_API_URL: 'http://sms.test' }),
    );
    expect(local?.payments).toBeUndefined();
    expect(local?.env.STRIPE_API_BASE).toBeUndefined();
    await local?.close();
  });
});
