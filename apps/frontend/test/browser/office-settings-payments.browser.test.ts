/**
 * Settings → Payments against the real platform with `npm start`'s own Stripe stand-in: A's owner
 * sees no account and the 50 % default, presses Connect Stripe, submits the stand-in's onboarding
 * page, comes back to the screen showing "Charges enabled" (the stand-in's account.updated reached
 * the control plane's webhook receiver), has a 0 % deposit refused beside the field, sets 30 %, and
 * B's settings stay untouched. Axe 0 and no sideways scroll at 1280 and 375 px.
 */
import type { PaymentsView } from '@platform/contracts/payments.js';
import { describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform({ localProviders: true });
const checkBothWidths = bothWidthsChecker('settings');
const view = async (t: { id: string; owner: { token: string } }) =>
  (await s.p.api(t.owner.token, 'GET', `/api/tenants/${t.id}/payments`)).body as PaymentsView;

describe("the owner's payments settings", () => {
  it('connects Stripe through its onboarding, comes back with charges enabled, and sets a 30 % deposit', async () => {
    const { a, b } = s.p;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/settings/company', a.owner.email);
    await page.click('nav[aria-label="Settings"] >> text=Payments');
    await page.waitForSelector('h1:has-text("Settings: Payments")');
    expect(await page.textContent('#pay-state')).toContain('Not connected.');
    expect(await page.textContent('#pay-rule-now')).toContain('50 %');
    await checkBothWidths(page, 'payments-new');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.click('button[data-pay-connect]');
    await page.waitForSelector('h1:has-text("Set up payments")');
    await page.fill('#business_name', 'Acme Blinds');
    await page.getByRole('button', { name: 'Agree and submit' }).click();
    await page.waitForURL(`${s.p.siteOf(a)}/office/settings/payments`);
    await page.waitForSelector('#pay-state:has-text("Charges enabled")');
    expect(await page.$('button[data-pay-connect]')).toBeNull();
    // The stand-in's account.updated reached the receiver too (not only the screen's read).
    await waitUntil('the webhook delivered', async () => {
      const r = await s.p.db.query<{ charges_enabled: boolean }>(
        'SELECT charges_enabled FROM payment_accounts WHERE tenant_id = $1',
        [a.id],
      );
      return r.rows[0]?.charges_enabled || undefined;
    });

    await page.check('#deposit-kind-percent');
    await page.fill('#deposit-percent', '0');
    await page.click('#deposit-form button[type=submit]');
    await page.waitForSelector('#deposit-percent[aria-invalid="true"]');
    expect((await page.textContent('#deposit-percent-err'))?.length).toBeGreaterThan(0);
    await page.fill('#deposit-percent', '30');
    await page.click('#deposit-form button[type=submit]');
    await page.waitForSelector('text=Deposit rule saved.');
    expect(await page.textContent('#pay-rule-now')).toContain('30 %');
    await checkBothWidths(page, 'payments');

    expect(await view(a)).toMatchObject({
      account: { state: 'connected', charges_enabled: true },
      deposit_rule: { kind: 'percent', percent: 30 },
    });
    expect(await view(b)).toMatchObject({
      account: { state: 'not_connected' },
      deposit_rule: { kind: 'percent', percent: 50 },
    });
    await ctx.close();
  }, 180_000);
});
