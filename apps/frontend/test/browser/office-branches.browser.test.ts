/**
 * Branches against the real platform: A's owner (Professional) adds two branches from Settings, a ZIP
 * code already served is refused beside its field, Olga (office) is limited to one; web estimates from
 * two ZIP codes land in the inbox, which filters by branch and names each lead's branch, and Olga sees
 * only her branch's lead. B on Free is told which plan brings branches. Axe 0, 1280 and 375 px.
 */
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { type SeededTenant, waitUntil } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const check = bothWidthsChecker('branches');
const signIn = (ctx: BrowserContext, t: SeededTenant, path: string, email: string) =>
  signInToOffice(s, ctx, t, path, email);

const estimate = (name: string, zip: string) =>
  s.p.postOnSite(s.p.a, '/api/estimate', 'estimate', {
    name,
    email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
    phone: '(303) 555-0188',
    zip,
    products: ['roller-shades'],
    form_source: 'estimate-page',
  });

describe('branches', () => {
  it('adds branches, limits a person to one, and the inbox filters by branch', async () => {
    const { a } = s.p;
    for (const [name, zip] of [
      ['Dana Denver', '80211'],
      ['Bea Boulder', '80301'],
    ] as const)
      expect((await estimate(name, zip)).status).toBe(201);
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signIn(ctx, a, '/office/settings/branches', a.owner.email);
    await page.waitForSelector('h1:has-text("Settings: Branches")');
    await page.fill('#br-name', 'Denver');
    await page.fill('#br-zips', '80211, 80212');
    await page.click('#branch-form button[type=submit]');
    await page.waitForSelector('text=Denver added.');
    await page.fill('#br-name', 'Boulder');
    await page.fill('#br-zips', '80301 80212');
    await page.check(`input[data-member="${a.office.id}"]`);
    await page.click('#branch-form button[type=submit]');
    await page.waitForSelector('#br-zips[aria-invalid="true"]');
    expect(await page.textContent('[data-err-for="zip_codes"]')).toContain('80212 is served by Denver');
    await page.fill('#br-zips', '80301');
    await page.click('#branch-form button[type=submit]');
    await page.waitForSelector('text=Boulder added.');
    const boulder = page.locator('li.card', { hasText: 'Boulder' });
    expect(await boulder.textContent()).toContain('Olga Office');
    await check(page, 'settings');

    await waitUntil('both leads in the ERP', async () => {
      const r = await s.p.api(a.owner.token, 'GET', '/crm/leads?q=example.com&page_size=50');
      const names = (r.body.items as { contact_name: string }[]).map((l) => l.contact_name);
      return names.includes('Dana Denver') && names.includes('Bea Boulder') ? true : undefined;
    });
    await page.goto(`${s.p.siteOf(a)}/office/leads`);
    await page.waitForSelector('#branch-filter');
    await page.selectOption('#branch-filter', { label: 'Boulder' });
    await page.waitForFunction(() => location.search.includes('branch='));
    await page.waitForSelector('li.card:has-text("Bea Boulder")');
    expect(await page.locator('li.card', { hasText: 'Dana Denver' }).count()).toBe(0);
    await check(page, 'inbox');
    // The dispatch board offers the same filter and keeps the choice in its address.
    await page.goto(`${s.p.siteOf(a)}/office/dispatch?view=list`);
    await page.selectOption('#branch-filter', { label: 'Denver' });
    await page.waitForFunction(() => location.search.includes('branch='));
    await check(page, 'dispatch');
    await ctx.close();

    const olga = await s.browser.newContext(DESKTOP);
    const hers = await signIn(olga, a, '/office/leads', a.office.email);
    await hers.waitForSelector('li.card:has-text("Bea Boulder")');
    expect(await hers.locator('li.card', { hasText: 'Dana Denver' }).count()).toBe(0);
    await olga.close();
  });

  it('tells an owner on Free which plan brings branches', async () => {
    const { b } = s.p;
    const down = await s.p.api(b.owner.token, 'PUT', `/api/tenants/${b.id}/plan`, { plan: 'free' });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signIn(ctx, b, '/office/settings/branches', b.owner.email);
    await page.waitForSelector('#branches-locked');
    expect(await page.textContent('#branches-locked')).toContain('Several locations come with Professional.');
    expect(await page.locator('#branch-form').count()).toBe(0);
    await check(page, 'free');
    await ctx.close();
  });
});
