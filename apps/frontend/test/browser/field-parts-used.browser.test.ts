/**
 * Parts used in the field app against the real platform, at 375 px: the technician opens today's
 * install job, loses signal, records two brackets used and completes the job, then gets signal back:
 * the stock falls by two, once, and the job shows what was recorded. Axe 0 at 375 and 1280 px.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { axe, PHONE_375 } from './chromium.js';
import { signInToField } from './office-session.js';
import { SHOTS, useRealPlatform } from './real-session.js';
import { bracketInStock, ok } from './stock.steps.js';

const s = useRealPlatform();

describe('parts used in the field app', () => {
  it('records two brackets offline with the completion; the stock falls by two once the signal returns', async () => {
    const { a } = s.p;
    const part = await bracketInStock(s.p, 9);
    const day = new Date().toISOString().slice(0, 10);
    await ok(
      s.p.api(a.office.token, 'POST', '/jobs', {
        customer: { name: 'Fiona Fitter', phone: '+1 303 555 0142', email: 'fiona@example.com' },
        address: { street: '1420 Larimer St', city: 'Denver', zip: '80202', state: 'CO' },
        scheduled_start: `${day}T15:00:00Z`,
        scheduled_end: `${day}T17:00:00Z`,
        technician_id: a.technician.id,
      }),
    );

    const ctx = await s.browser.newContext(PHONE_375);
    const page = await signInToField(s, ctx, a);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.click('text=Fiona Fitter');
    await page.waitForSelector('#parts-form');
    expect(await axe(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.locator('#parts-form').screenshot({ path: join(SHOTS, 'field-parts-used-form-375.png') });

    await ctx.setOffline(true);
    await page.selectOption('#part-pick-0', { label: 'Steel bracket' });
    await page.fill('#part-qty-0', '2');
    await page.click('#parts-form button[type=submit]');
    await page.waitForSelector('#parts-waiting');
    expect(await page.textContent('#parts-waiting')).toBe('2 × Steel bracket');
    await page.fill('#resolution', 'Fitted, two brackets used');
    await page.click('#complete-form button[type=submit]');
    await page.waitForSelector('text=waiting for signal');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'field-parts-used-offline-375.png'), fullPage: true });

    await ctx.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.waitForSelector('text=All changes sent', { timeout: 60_000 });
    await page.waitForSelector('#parts-recorded');
    expect(await page.textContent('#parts-recorded')).toBe('2 × Steel bracket');
    const after = await waitUntil('the stock fell by two', async () => {
      const r = await s.p.api(a.office.token, 'GET', '/inventory/parts');
      const p = r.body.items.find((x: { id: number }) => x.id === part.id);
      return p?.on_hand === 8 ? p : undefined;
    });
    expect(after).toMatchObject({ on_hand: 8, below_min: true });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'field-parts-used-sent-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'field-parts-used-sent-1280.png'), fullPage: true });
    await ctx.close();
  }, 240_000);
});
