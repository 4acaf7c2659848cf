/**
 * Settings → Integrations, "Tax mapping", against the real platform with `npm start`'s accounting
 * stand-in (its rates: No GST and Zero Rated at 0 %, 10 %, 15 %, a purchase-only 15 % and an archived
 * 12.5 %): once A's accounting is connected, each ERP sale tax shows beside a select of the active
 * sale rates, the one rate of the same percent pre-selected, the others saying why they need a
 * choice; Save stores them and the screen then says every tax has its rate. Axe 0 and no sideways
 * scroll at 1280 and 375 px.
 */
import type { TaxMappingView } from '@platform/contracts/integrations.js';
import { describe, expect, it } from 'vitest';

import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { tenantConnectsAccounting } from './payments.steps.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform({ localProviders: true });
const checkBothWidths = bothWidthsChecker('settings');

describe("the owner's tax mapping", () => {
  it('pre-selects the rate of the same percent, says which taxes need a choice, and saves them', async () => {
    const { a } = s.p;
    const erp = await s.p.erpOf(a);
    const tax = async (name: string, amount: number) =>
      erp.create('account.tax', { name, amount, amount_type: 'percent', type_tax_use: 'sale' });
    const gst = await tax('GST 10%', 10);
    const exempt = await tax('Exempt 0%', 0);
    const county = await tax('County tax 5%', 5);
    await tenantConnectsAccounting(s);

    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/settings/integrations', a.owner.email);
    await page.waitForSelector('#tax-table');
    expect(await page.inputValue(`#tax-${gst}`)).toBe('OUTPUT');
    expect(await page.textContent(`#tax-${gst}-note`)).toContain('Matched by rate');
    expect(await page.inputValue(`#tax-${exempt}`)).toBe('');
    expect(await page.textContent(`#tax-${exempt}-note`)).toContain('Several rates have this percent');
    expect(await page.textContent(`#tax-${county}-note`)).toContain('No rate has this percent');
    const offered = await page.$$eval(`#tax-${county} option`, (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual(['', 'NONE', 'EXEMPTOUTPUT', 'OUTPUT', 'OUTPUT2']);
    expect(await page.textContent('#tax-state')).toContain('not saved yet');
    await checkBothWidths(page, 'tax-mapping');

    await page.selectOption(`#tax-${exempt}`, 'EXEMPTOUTPUT');
    await page.selectOption(`#tax-${county}`, 'OUTPUT2');
    // Every other ERP tax gets a rate too, so the screen can say all are mapped.
    for (const id of await page.$$eval('select[data-tax-id]', (ss) =>
      ss.filter((x) => (x as HTMLSelectElement).value === '').map((x) => x.id),
    ))
      await page.selectOption(`#${id}`, 'NONE');
    await page.click('#tax-form button[type=submit]');
    await page.waitForSelector('#office-msg.ok:has-text("Tax mapping saved.")');
    expect(await page.textContent('#tax-state')).toContain('Every ERP tax has its accounting tax rate.');
    expect(await page.inputValue(`#tax-${county}`)).toBe('OUTPUT2');
    await checkBothWidths(page, 'tax-mapping-saved');

    const r = await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/integrations/accounting/tax-mapping`);
    const stored = (r.body as TaxMappingView).taxes.filter((t) => [gst, exempt, county].includes(t.erp_tax_id));
    expect(stored.map((t) => t.tax_type)).toEqual(['OUTPUT', 'EXEMPTOUTPUT', 'OUTPUT2']);
    await ctx.close();
  });
});
