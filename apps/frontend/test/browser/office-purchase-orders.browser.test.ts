/**
 * Supplier orders in Chromium against the real platform: two products of two vendors on a quote the
 * customer accepts; the control plane's job drafts two purchase orders with the exact sizes; the office
 * confirms both (the one whose supplier has an email is emailed to it), receives one window of one
 * and then the rest from the Purchase orders screen, which then lists it as received.
 * Axe 0 and no sideways scroll at 1280 and 375 px on each screen.
 */
import { describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform({ localProviders: true });
const checkBothWidths = bothWidthsChecker('purchase-orders');
const SIGNATURE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const window = (product_code: string, room: string, width_in: number) => ({
  ...{ product_code, room, width_in, drop_in: 48.5, mount: 'inside', colour: 'White', options: [] },
});

describe('supplier orders, from an accepted quote to the windows received', () => {
  it('drafts one order per vendor; the office confirms and receives one', async () => {
    const { a } = s.p;
    const vendor = async (name: string, email?: string) =>
      (await s.p.api(a.owner.token, 'POST', '/supply/suppliers', { name, ...(email ? { email } : {}) })).body
        .id as number;
    const mill = await vendor('Shade Mill', 'orders@shade.example');
    const works = await vendor('Blind Works');
    for (const [code, supplier_id] of [
      ['roller-shade', mill],
      ['wood-blind', works],
    ] as const) {
      const r = await s.p.api(a.owner.token, 'PUT', `/supply/products/${code}`, {
        ...{ supplier_id, cost_minor: 9000, lead_days: 14 },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const q = await s.p.api(a.office.token, 'POST', '/sales/quotes', {
      customer: { name: 'Priya Raman', email: 'priya@example.com' },
      lines: [
        window('roller-shade', 'Office', 46.125),
        window('wood-blind', 'Den', 27.375),
        window('roller-shade', 'Hall', 30),
      ],
    });
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    const sent = await s.p.api(a.office.token, 'POST', `/sales/quotes/${q.body.id}/send`);
    const accepted = await s.p.api(
      undefined,
      'POST',
      `/portal/quotes/${sent.body.token}/accept`,
      { name: 'Priya Raman', signature_png_base64: SIGNATURE },
      { 'x-tenant-id': a.id },
    );
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    await waitUntil('two drafted purchase orders', async () => {
      const r = await s.p.api(a.office.token, 'GET', '/purchase-orders?state=open');
      return r.body.items.length === 2 ? r.body.items : undefined;
    });

    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/purchase-orders', a.office.email);
    await page.waitForSelector('.po-sale');
    expect(await page.textContent('main, body')).toContain('46 1/8" W × 48 1/2" H');
    expect(await page.textContent('.po-sale h2')).toContain('3 windows awaited');
    await checkBothWidths(page, 'open');
    // Confirmed: emailed to the supplier that has an address; the office is told when one has none.
    const millOrder = () => page.locator('li.po', { hasText: 'Shade Mill' });
    await millOrder().locator('[data-confirm]').click();
    await page.waitForSelector('text=confirmed and emailed to orders@shade.example.');
    await page.locator('li.po', { hasText: 'Blind Works' }).locator('[data-confirm]').click();
    await page.waitForSelector('text=the supplier has no email address');
    // A partial receipt: the Office window only, then the rest.
    await millOrder().locator('[data-line][aria-label*="Office"]').click();
    await page.waitForSelector('text=Received part of');
    expect(await page.textContent('.po-sale h2')).toContain('2 windows awaited');
    await checkBothWidths(page, 'partly-received');
    await millOrder().locator('[data-receive]:not([data-line])').click();
    await page.waitForSelector('text=received.');
    expect(await page.textContent('.po-sale h2')).toContain('1 window awaited');
    await page
      .getByRole('navigation', { name: 'Purchase order lists' })
      .getByRole('link', { name: 'Received' })
      .click();
    await page.waitForSelector('[aria-current="page"]:has-text("Received")');
    await page.waitForSelector('.po-sale');
    expect(await page.textContent('.po-sale')).toContain('46 1/8" W × 48 1/2" H');
    await checkBothWidths(page, 'received');
    await ctx.close();
  }, 240_000);
});
