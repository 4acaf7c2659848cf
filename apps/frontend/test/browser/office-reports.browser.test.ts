/**
 * Issue 25's reports against the real platform: A's owner (Professional) opens Reports from the nav,
 * reads the summary (jobs, quotes, paid revenue in the tenant's currency), the funnel by UTM source
 * with its chart, changes the grouping and the dates, and downloads the funnel as CSV. On Free, B's
 * owner sees the summary and reads which plan unlocks the advanced part. With two branches, A's
 * owner reads revenue by branch and filters every figure to one. Axe 0 and no sideways scroll at
 * 1280 and 375 px.
 */
import { readFileSync } from 'node:fs';

import { invoiceOrder } from '@platform/erp-embedded/testing';
import { describe, expect, it } from 'vitest';

import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const checkBothWidths = bothWidthsChecker('reports');
// The tenants' time zone (the default, Denver): report days are the company's, not UTC's.
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Denver' }).format(new Date());

describe('the office reports', () => {
  it('shows the summary, the funnel by source with a chart, regroups, and downloads CSV', async () => {
    const { a } = s.p;
    const erp = await s.p.erpOf(a);
    const google = await erp.create('utm.source', { name: 'google' });
    const meta = await erp.create('utm.source', { name: 'facebook' });
    const partner = await erp.create('res.partner', { name: 'Dana Whitfield' });
    const sale = async (source: number, slug: string, price: number, paid: boolean) => {
      const lead = await erp.create('crm.lead', { name: `Shades – ${slug}`, source_id: source, x_lp_slug: slug });
      const order = await erp.create('sale.order', {
        partner_id: partner,
        opportunity_id: lead,
        source_id: source,
        x_lp_slug: slug,
        order_line: [[0, 0, { name: 'Roller shade', price_unit: price, product_uom_qty: 1 }]],
      });
      await invoiceOrder(erp, order, paid ? today : undefined);
    };
    await sale(google, 'kitchen-shades', 1250.5, true);
    await sale(google, 'kitchen-shades', 480, false);
    await sale(meta, 'bath-blinds', 799.99, true);
    await erp.create('crm.lead', { name: 'Walk-in', source_id: meta });

    const ctx = await s.browser.newContext({ ...DESKTOP, acceptDownloads: true });
    const page = await signInToOffice(s, ctx, a, '/office/leads', a.owner.email);
    await page.click('nav[aria-label="Office"] >> text=Reports');
    await page.waitForSelector('h1:has-text("Reports")');
    expect(await page.getAttribute('nav[aria-label="Office"] a[href="/office/reports"]', 'aria-current')).toBe('page');
    expect(await page.textContent('#fig-revenue')).toBe('$2,050.49');
    expect(await page.textContent('#fig-sent')).toBe('3');
    expect(await page.textContent('#month-vs-last')).toContain('This month $2,050.49');
    await page.waitForSelector('#funnel-chart canvas');
    expect(await page.textContent('#funnel-table tfoot')).toContain('$2,050.49');
    await checkBothWidths(page, 'by-form');

    await page.selectOption('#report-group', 'utm_source');
    await page.click('#report-range button[type=submit]');
    await page.waitForSelector('#funnel-h:has-text("by utm source")');
    const googleRow = (await page.textContent('#funnel-table tbody tr:has-text("google")')) ?? '';
    expect(googleRow.replace(/\s+/g, ' ')).toMatch(/google\s*2\s*2\s*2\s*1\s*\$1,250\.50/);
    await page.waitForSelector('#funnel-chart canvas');
    await checkBothWidths(page, 'by-utm-source');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-report-csv="funnel"]')]);
    expect(download.suggestedFilename()).toMatch(/^funnel-utm_source-.*\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain('google,2,2,2,1,1250.50');
    expect(csv).toContain('total,4,3,3,2,2050.49');

    // Dates with nothing in them: the figures say so.
    await page.fill('#report-from', '2020-01-01');
    await page.fill('#report-to', '2020-01-31');
    await page.click('#report-range button[type=submit]');
    await page.waitForSelector('#office-msg:has-text("Showing 2020-01-01 to 2020-01-31")');
    expect(await page.textContent('#fig-revenue')).toBe('$0.00');
    expect(await page.textContent('#funnel-table tbody')).toContain('No leads in these dates.');
    await ctx.close();
  });

  it('tells an owner on Free which plan unlocks the advanced reports, and still shows the summary', async () => {
    const { b } = s.p;
    const down = await s.p.api(b.owner.token, 'PUT', `/api/tenants/${b.id}/plan`, { plan: 'free' });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, b, '/office/reports', b.owner.email);
    await page.waitForSelector('#advanced-locked');
    expect(await page.textContent('#advanced-locked')).toContain('The Professional plan unlocks it.');
    expect(await page.textContent('#fig-revenue')).toBe('$0.00');
    expect(await page.locator('#funnel-table').count()).toBe(0);
    expect(await page.locator('#report-group').count()).toBe(0);
    await checkBothWidths(page, 'free');
    await ctx.close();
  });

  it('with two branches, shows revenue by branch and filters every figure to one branch', async () => {
    const { a } = s.p;
    const add = (name: string, zip_codes: string[]) =>
      s.p.api(a.owner.token, 'POST', `/api/tenants/${a.id}/branches`, { name, zip_codes });
    expect((await add('Front Range', ['80202'])).status).toBe(201);
    const boulder = await add('Boulder', ['80301']);
    expect(boulder.status, JSON.stringify(boulder.body)).toBe(201);
    const erp = await s.p.erpOf(a);
    const partner = await erp.create('res.partner', { name: 'Bo Ulder', zip: '80301' });
    const order = await erp.create('sale.order', {
      partner_id: partner,
      order_line: [[0, 0, { name: 'Shutter', price_unit: 300, product_uom_qty: 1 }]],
    });
    await invoiceOrder(erp, order, today);

    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/reports', a.owner.email);
    await page.waitForSelector('#branches-table');
    const rows = (await page.textContent('#branches-table tbody'))!.replace(/\s+/g, ' ');
    expect(rows).toMatch(/Front Range\s*2\s*\$2,050\.49/);
    expect(rows).toMatch(/Boulder\s*1\s*\$300\.00/);
    expect(await page.textContent('#fig-revenue')).toBe('$2,350.49');
    await checkBothWidths(page, 'branches');

    await page.selectOption('#branch-filter', { label: 'Boulder' });
    await page.click('#report-range button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#fig-revenue')?.textContent === '$300.00');
    expect(page.url()).toContain(`branch=${boulder.body.id}`);
    expect(await page.textContent('#fig-sent')).toBe('1');
    expect((await page.textContent('#branches-table tbody'))!.replace(/\s+/g, ' ')).not.toContain('Front Range');
    await ctx.close();
  });
});
