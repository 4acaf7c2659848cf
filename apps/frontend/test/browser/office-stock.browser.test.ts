/**
 * Stock in Chromium against the real platform: a bracket part (reorder under 5) received; on the
 * Stock screen the roller shade is set to need two per window; a customer accepts three roller shades, the control plane reserves
 * six; the Stock screen shows 10 on hand, 6 reserved, 4 available and the bracket on the reorder list;
 * "Draft purchase order" drafts it to the vendor; a count with a reason sets the stock (what no
 * longer fits is unreserved). A plan without
 * stock shows the plan that has it. Axe 0 and no sideways scroll at 1280 and 375 px.
 */
import { describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';
import { bracketInStock, ok, setPartsPerWindow } from './stock.steps.js';

const s = useRealPlatform({ localProviders: true });
const checkBothWidths = bothWidthsChecker('stock');
const SIGNATURE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const window = (room: string) => ({
  ...{ product_code: 'roller-shade', room, width_in: 30, drop_in: 48, mount: 'inside', colour: 'White', options: [] },
});

describe('the Stock screen', () => {
  it('shows reserved parts, drafts the reorder and saves a count; a plan without stock says which has it', async () => {
    const { a, b } = s.p;
    await bracketInStock(s.p, 5);
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/stock', a.office.email);
    await page.waitForSelector('#product-parts');
    await setPartsPerWindow(page, 'roller-shade', 'Steel bracket', 2);
    expect(await page.textContent('#per-window')).toContain(': 2 × Steel bracket');

    const q = await ok(
      s.p.api(a.office.token, 'POST', '/sales/quotes', {
        customer: { name: 'Priya Raman', email: 'priya@example.com' },
        lines: [window('Office'), window('Den'), window('Hall')],
      }),
    );
    const sent = await ok(s.p.api(a.office.token, 'POST', `/sales/quotes/${q.id}/send`));
    await ok(
      s.p.api(
        undefined,
        'POST',
        `/portal/quotes/${sent.token}/accept`,
        { name: 'Priya Raman', signature_png_base64: SIGNATURE },
        { 'x-tenant-id': a.id },
      ),
    );
    await waitUntil('six brackets reserved', async () => {
      const r = await s.p.api(a.office.token, 'GET', '/inventory/parts');
      return r.body.items[0]?.reserved === 6 ? true : undefined;
    });

    await page.reload();
    await page.waitForSelector('#reorder-list');
    expect(await page.textContent('.stock-qty')).toBe('10 on hand · 6 reserved · 4 available');
    expect(await page.textContent('#reorder-list')).toContain(
      'Steel bracket: 4 available, under 5; order 16 from Bracket Co',
    );
    await checkBothWidths(page, 'reorder');
    await page.getByRole('button', { name: 'Draft purchase order' }).click();
    await page.waitForSelector('text=to Bracket Co.');
    await page.locator('.part summary').first().click();
    await page.getByLabel('Counted quantity').fill('3');
    await page.getByLabel('Reason').fill('Van stock recount');
    await page.getByRole('button', { name: 'Save count' }).click();
    await page.waitForSelector('text=Steel bracket: counted 3.');
    expect(await page.textContent('.stock-qty')).toBe('3 on hand · 3 reserved · 0 available');
    await page.locator('.part summary').first().click();
    await checkBothWidths(page, 'counted');
    await ctx.close();

    await ok(s.p.api(b.owner.token, 'PUT', `/api/tenants/${b.id}/plan`, { plan: 'starter' }));
    const other = await s.browser.newContext(DESKTOP);
    const locked = await signInToOffice(s, other, b, '/office/stock', b.owner.email);
    await locked.waitForSelector('#stock-locked');
    expect(await locked.textContent('#stock-locked')).toContain('The Professional plan unlocks it.');
    await checkBothWidths(locked, 'locked');
    await other.close();
  }, 240_000);
});
