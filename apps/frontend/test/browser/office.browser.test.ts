/**
 * An office user's morning: the leads inbox shows a new web lead with its source, attribution and
 * callback flag, the lead is qualified and converted; the dispatch board shows today's jobs by
 * technician, an unassigned job is given to a technician and rescheduled with ordinary form controls. The
 * control plane is the contract stand-in (its /crm and /jobs answer as the contract says).
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { axe, DESKTOP, PHONE_375 } from './chromium.js';
import { OLGA_OFFICE, seedTwoTechnicians, useStandinSession } from './standin-session.js';

const SHOTS = join(process.cwd(), 'test-results', 'frontend');
const session = useStandinSession(OLGA_OFFICE, (control) => {
  seedTwoTechnicians(control);
  control.addJob({ id: 'd3', technician: null, customer: { id: 'p3', name: 'Una Unassigned', phone: '', email: '' } });
  control.leads.push({
    id: 41,
    name: 'Estimate: shutters',
    contact_name: 'Wendy Web',
    email: 'wendy@example.com',
    phone: '(303) 555-0177',
    source: 'product-shutters_phone1',
    stage: { id: 1, name: 'New' },
    type: 'lead',
    callback: true,
    attribution: { utm_source: 'google', utm_campaign: 'fall', gclid: 'G-1' },
    create_date: '2026-11-25T08:15:00',
  });
});

describe('the office views', () => {
  it('finds a new web lead in the inbox, qualifies it and converts it', async () => {
    const ctx = await session.browser.newContext(PHONE_375);
    const page = await ctx.newPage();
    await page.goto(`${session.fe.url}/office/leads`);
    await page.fill('#email', session.control.user.email);
    await page.fill('#password', session.control.user.password);
    await page.click('#login button[type=submit]');
    await page.waitForSelector('text=Wendy Web');
    const text = (await page.textContent('main'))!;
    expect(text).toContain('Call back');
    expect(text).toContain('product-shutters_phone1');
    expect(text).toContain('gclid: G-1');
    expect(await page.locator('a[href="tel:3035550177"]').count()).toBe(1);
    expect(await axe(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'office-leads-375.png'), fullPage: true });
    await page.selectOption('#stage-41', '2');
    await page.waitForSelector('#office-msg:has-text("Stage saved")');
    expect(session.control.leads[0]!.stage.name).toBe('Qualified');
    await page.click('button[data-convert="41"]');
    await page.waitForSelector('#office-msg:has-text("Converted")');
    expect(session.control.leads[0]!.type).toBe('opportunity');
    await ctx.close();
  });

  it('assigns an unassigned job and reschedules it on the dispatch board', async () => {
    const ctx = await session.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${session.fe.url}/office/leads`);
    await page.fill('#email', session.control.user.email);
    await page.fill('#password', session.control.user.password);
    await page.click('#login button[type=submit]');
    await page.waitForSelector('text=Wendy Web');
    // The list board (the calendar is the default at this width: office-dispatch-calendar.browser.test.ts).
    await page.goto(`${session.fe.url}/office/dispatch?view=list`);
    await page.waitForSelector('h1:has-text("Dispatch board")');
    expect(await page.textContent('#col-u-t1')).toContain('Tess Tech (1)');
    expect(await page.textContent('#col-none')).toContain('Unassigned (1)');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'office-dispatch-desktop.png'), fullPage: true });
    await page.selectOption('#assign-d3', 'u-t2');
    await page.waitForSelector('#office-msg:has-text("Technician assigned")');
    expect(session.control.jobs.get('d3')!.technician).toEqual({ id: 'u-t2', name: 'Theo Tech' });
    expect(await page.textContent('section[aria-labelledby="col-u-t2"]')).toContain('Una Unassigned');
    const day = new Date().toISOString().slice(0, 10);
    await page.fill('#start-d3', `${day}T18:30`);
    await page.click('button[data-reschedule="d3"]');
    await page.waitForSelector('#office-msg:has-text("Rescheduled")');
    const j = session.control.jobs.get('d3')!;
    expect(new Date(j.scheduled_start!).getTime()).toBe(new Date(`${day}T18:30`).getTime());
    expect(Date.parse(j.scheduled_end!) - Date.parse(j.scheduled_start!)).toBe(7_200_000);
    await ctx.close();
  });
});
