/**
 * The Stripe stand-in's hosted pages in Chromium at 375 and 1280 px, used as people would: the
 * tenant's owner finishes Connect onboarding; the customer's card 4000 0000 0000 0002 is declined
 * with a message they can act on, then 4242 4242 4242 4242 pays and the page sends them to the
 * success URL; the session reads back paid through the payments port; axe finds nothing.
 */
import { join } from 'node:path';

import { type PaymentsAdapters, stripePaymentsAdapters } from '@platform/providers';
import { type RunningLocalStripe, startLocalStripe, TEST_CARDS } from '@platform/providers/local';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { axe, DESKTOP, launchChromium, PHONE_375 } from '../../../frontend/test/browser/chromium.js';

const SHOTS = join(process.cwd(), 'test-results', 'platform');
const KEY = 'sk_test_browser_0123456789abcdef';
let local: RunningLocalStripe;
let payments: PaymentsAdapters;
let browser: Browser;

beforeAll(async () => {
  local = await startLocalStripe({ secretKey: KEY, retryDelaysMs: [] });
  payments = stripePaymentsAdapters({ secretKey: KEY, apiBase: local.url, maxNetworkRetries: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await local?.close();
});

async function enterCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
}

describe('the Stripe stand-in hosted pages', () => {
  for (const [label, device] of [
    ['375px', PHONE_375],
    ['1280px', DESKTOP],
  ] as const) {
    it(`onboards a tenant, declines 0002 with a readable message, then pays with 4242 (${label})`, async () => {
      const ctx = await browser.newContext({ ...device, bypassCSP: true }); // axe is injected as a script
      const page = await ctx.newPage();
      // The office and the portal are not running here: answer their URLs in the browser.
      await page.route('http://office.test/**', (r) =>
        r.fulfill({ contentType: 'text/html', body: '<title>Office</title>' }),
      );
      await page.route('http://portal.test/**', (r) =>
        r.fulfill({ contentType: 'text/html', body: '<title>Paid</title>' }),
      );

      const account = await payments.api.createAccount({ tenantId: `t-${label}`, type: 'express' });
      const link = await payments.api.createOnboardingLink({
        accountId: account.accountId,
        refreshUrl: 'http://office.test/payments/refresh',
        returnUrl: 'http://office.test/payments/return',
      });
      await page.goto(link.url);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `stripe-onboarding-${label}.png`), fullPage: true });
      await page.getByLabel('Business name').fill('Sunrise Blinds');
      await page.getByRole('button', { name: 'Agree and submit' }).click();
      await page.waitForURL('http://office.test/payments/return');
      expect((await payments.api.getAccount(account.accountId)).chargesEnabled).toBe(true);

      const session = await payments.api.createCheckout({
        accountId: account.accountId,
        amountMinor: 21_650,
        currency: 'USD',
        description: 'Deposit for quote Q-0042',
        metadata: { tenantId: `t-${label}`, kind: 'deposit', ref: 'Q-0042' },
        successUrl: 'http://portal.test/paid/{CHECKOUT_SESSION_ID}',
        cancelUrl: 'http://portal.test/quote',
        idempotencyKey: `browser-${label}`,
      });
      await page.goto(session.url!);
      expect(await page.locator('main').textContent()).toContain('Sunrise Blinds$216.50Deposit for quote Q-0042');

      await enterCard(page, TEST_CARDS.declined.replace(/(\d{4})(?=\d)/g, '$1 '));
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain('Your card was declined. Try another card');
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `stripe-declined-${label}.png`), fullPage: true });
      expect((await payments.api.getCheckout(account.accountId, session.sessionId))!.status).toBe('open');

      await enterCard(page, '4242 4242 4242 4242');
      await page.waitForURL(`http://portal.test/paid/${session.sessionId}`);
      const paid = (await payments.api.getCheckout(account.accountId, session.sessionId))!;
      expect([paid.status, paid.paymentStatus]).toEqual(['complete', 'paid']);
      const payment = (await payments.api.getPayment(account.accountId, paid.paymentIntentId!))!;
      expect(payment.card).toEqual({ brand: 'visa', last4: '4242' });

      await page.goto(`${local.url}/c/pay/${session.sessionId}`);
      expect(await page.locator('main').textContent()).toContain('This payment is complete');
      await ctx.close();
    });
  }
});
