/**
 * Where leads become jobs: from a web lead in the inbox the office builds a three-window quote from the
 * price grids (each price as the grid says, an outside mount's allowance and an option included, sizes
 * exact to 1/8"), sees the control plane's 422 under the right field, creates the quote, sends the
 * portal link and makes the install job; on the dispatch board the job is dragged onto a technician, moved
 * back and scheduled with the keyboard, and a conflicting change is said, never overwritten. The control
 * plane is the contract stand-in (/crm, /sales and /jobs answer as the contract says).
 */
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { axe, DESKTOP, PHONE_375 } from './chromium.js';
import { addLivingRoomAndBedroom, fillKitchen, measure, price } from './quote-builder.steps.js';
import { OLGA_OFFICE, seedTwoTechnicians, useStandinSession } from './standin-session.js';

const SHOTS = join(process.cwd(), 'test-results', 'frontend');
const session = useStandinSession(OLGA_OFFICE, (control) => {
  seedTwoTechnicians(control);
  control.leads.push({
    id: 41,
    name: 'Estimate: roller shades',
    contact_name: 'Wendy Web',
    email: 'wendy@example.com',
    phone: '(303) 555-0177',
    source: 'product-roller_phone1',
    stage: { id: 1, name: 'New' },
    type: 'lead',
    callback: true,
    attribution: { utm_source: 'google', gclid: 'G-1' },
    create_date: '2026-11-25T08:15:00',
  });
});

async function signIn(page: Page, path: string): Promise<void> {
  await page.goto(`${session.fe.url}${path}`);
  await page.fill('#email', session.control.user.email);
  await page.fill('#password', session.control.user.password);
  await page.click('#login button[type=submit]');
}

/** Where a card is grabbed: its first line (the customer's name), as a person would, not a form session.control. */
const GRIP = { x: 24, y: 16 };
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('the office: from a lead to a quote to an install job', () => {
  it('builds a three-window quote from the grids, priced as the grids say, and sends the portal link', async () => {
    const ctx = await session.browser.newContext({ ...PHONE_375, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await ctx.newPage();
    await signIn(page, '/office/leads');
    await page.click('a[href="/office/quotes/new?lead=41"]');
    await page.waitForSelector('h1:has-text("New quote")');
    expect(await page.inputValue('#c-name')).toBe('Wendy Web');
    expect(await page.inputValue('#c-email')).toBe('wendy@example.com');
    expect(await page.getAttribute('a[href="/office/quotes"]', 'aria-current')).toBe('page');
    await page.fill('#c-street', '12 Elm St');
    await page.fill('#c-city', 'Denver');
    await page.fill('#c-zip', '80211');

    await fillKitchen(page);
    // 1/8" less sits in the 36" band ($119 at a 48" band drop); 1/8" more is the 48" band again.
    await page.selectOption('#l0-width8', '0');
    expect(await price(page, 0)).toBe('$119.00');
    await page.selectOption('#l0-width8', '1');
    expect(await price(page, 0)).toBe('$137.00');

    await addLivingRoomAndBedroom(page);
    expect(await page.textContent('#subtotal')).toBe('$756.00');
    expect(await axe(page)).toEqual([]);
    expect(await noSideScroll(page)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'office-quote-builder-375.png'), fullPage: true });

    // The control plane refuses the empty colour: its message is shown under that window's colour.
    await page.click('#create-quote');
    await page.waitForSelector('#l2-colour-err:has-text("is required")');
    expect(await page.getAttribute('#l2-colour', 'aria-invalid')).toBe('true');
    expect(session.control.sales.quotes).toHaveLength(0);
    await page.fill('#l2-colour', 'White');
    await page.click('#create-quote');
    await page.waitForSelector('h1:has-text("S00041")');

    const q = session.control.sales.quotes[0]!;
    expect(session.control.sales.posted.map((p) => p.key)).toEqual([
      session.control.sales.posted[0]!.key,
      session.control.sales.posted[0]!.key,
    ]);
    expect(q.amount_total).toBe(756);
    expect(q.lines.map((l) => [l.room, l.width_in, l.drop_in, l.mount])).toEqual([
      ['Kitchen', 36.125, 47.125, 'inside'],
      ['Living room', 46.75, 58, 'outside'],
      ['Bedroom', 30, 40.25, 'inside'],
    ]);
    expect(await page.textContent('#q-total')).toBe('$756.00');
    expect(await page.textContent('main')).toContain('46 3/4″ × 58″');
    expect(await axe(page)).toEqual([]);

    await page.click('#send-quote');
    await page.waitForSelector('#portal-link:not([hidden])');
    const url = await page.inputValue('#portal-url');
    expect(url).toBe(`https://acme.tenants.localhost/portal/quote/${session.control.sales.links[0]!.token}`);
    await page.click('#copy-link');
    await page.waitForSelector('#office-msg:has-text("Link copied")');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    await page.click('#open-install');
    expect(await page.inputValue('#i-street')).toBe('12 Elm St');
    expect(await page.inputValue('#i-zip')).toBe('80211');
    expect(await axe(page)).toEqual([]);
    expect(await noSideScroll(page)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'office-quote-375.png'), fullPage: true });
    await page.click('#create-job');
    await page.waitForSelector('#office-msg:has-text("Install job")');
    expect(await page.textContent('#office-msg')).toContain('not scheduled yet');
    const job = [...session.control.jobs.values()].find((j) => j.sale_order_id === q.sale_order_id)!;
    expect(job.stage.key).toBe('new');
    expect(job.scheduled_start).toBeNull();
    expect(job.customer.name).toBe('Wendy Web');
    expect(job.windows.map((w) => `${w.room}: ${w.product} ${w.width_in} × ${w.drop_in} ${w.mount}`)).toEqual([
      'Kitchen: Roller Shade 36.125 × 47.125 inside',
      'Living room: Roller Shade 46.75 × 58 outside',
      'Bedroom: Cellular Shade 30 × 40.25 inside',
    ]);
    await ctx.close();
  });

  it('lists the quote, then drags the install job onto a technician and schedules it with the keyboard', async () => {
    const ctx = await session.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await signIn(page, '/office/quotes');
    await page.waitForSelector('a:has-text("S00041")');
    expect(await page.textContent('main')).toContain('Sent');
    expect(await page.textContent('main')).toContain('$756.00');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'office-quotes-desktop.png'), fullPage: true });
    await page.click('a:has-text("New quote")');
    await page.waitForSelector('#l0-room');
    await page.fill('#l0-room', 'Den');
    await measure(page, 0, 'width', 72, 7);
    await measure(page, 0, 'drop', 40, 0);
    expect(await page.textContent('#l0-width-err')).toBe(
      '72.875 in (with an inside mount) is wider than the largest Roller Shade band, 72 in',
    );
    expect(await page.textContent('#l0-price')).toBe('–');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'office-quote-builder-desktop.png'), fullPage: true });
    await page.click('a[href="/office/quotes"]');
    await page.waitForSelector('a:has-text("S00041")');

    const job = [...session.control.jobs.values()].find(
      (j) => j.sale_order_id === session.control.sales.quotes[0]!.sale_order_id,
    )!;
    const card = `li[data-job="${job.id}"]`;
    // The list board (the calendar is the default at this width: office-dispatch-calendar.browser.test.ts).
    await page.goto(`${session.fe.url}/office/dispatch?view=list`);
    await page.waitForSelector(`section[data-drop="unscheduled"] ${card}`);
    await page.fill('#drop-time', '10:30');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'office-dispatch-drag-desktop.png'), fullPage: true });

    // Drag: onto Tess's column, which assigns the job and puts it on this day at the chosen time. The window is
    // tall enough to show both ends: Playwright scrolls to the target after pressing, which Chromium then
    // takes as the start of a drag from whatever moved under the pointer.
    await page.setViewportSize({ width: 1280, height: 1600 });
    await page.dragAndDrop(card, 'section[data-drop="u-t1"]', { sourcePosition: GRIP });
    await page.waitForSelector('#office-msg:has-text("assigned to Tess Tech")');
    const day = new Date().toISOString().slice(0, 10);
    expect(job.technician).toEqual({ id: 'u-t1', name: 'Tess Tech' });
    expect(job.stage.key).toBe('scheduled');
    expect(Date.parse(job.scheduled_start!)).toBe(new Date(`${day}T10:30`).getTime());
    expect(Date.parse(job.scheduled_end!) - Date.parse(job.scheduled_start!)).toBe(7_200_000);
    expect(await page.textContent('section[data-drop="u-t1"]')).toContain('Wendy Web');
    await page.screenshot({ path: join(SHOTS, 'office-dispatch-dropped-desktop.png'), fullPage: true });

    // Keyboard: back to needs scheduling, then to Theo at 14:00 with the card's own controls.
    await page.focus(`button[data-unschedule="${job.id}"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`section[data-drop="unscheduled"] ${card}`);
    expect(job.stage.key).toBe('new');
    await page.focus(`#assign-${job.id}`);
    await page.selectOption(`#assign-${job.id}`, 'u-t2');
    await page.waitForSelector('#office-msg:has-text("Technician assigned")');
    await page.fill(`#start-${job.id}`, `${day}T14:00`);
    await page.focus(`button[data-reschedule="${job.id}"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#office-msg:has-text("Scheduled")');
    expect(job.technician).toEqual({ id: 'u-t2', name: 'Theo Tech' });
    expect(job.stage.key).toBe('scheduled');
    expect(Date.parse(job.scheduled_start!)).toBe(new Date(`${day}T14:00`).getTime());
    expect(await page.textContent('section[data-drop="u-t2"]')).toContain('Wendy Web');
    await ctx.close();
  });

  it('says so and reloads when someone else changed the job meanwhile, overwriting nothing', async () => {
    // 375 px wide with a mouse: Chromium's touch emulation does not start native drags.
    const ctx = await session.browser.newContext({ viewport: { width: 375, height: 2400 } });
    const page = await ctx.newPage();
    await signIn(page, '/office/dispatch');
    await page.waitForSelector('li[data-job="d1"]');
    const day = new Date().toISOString().slice(0, 10);
    session.control.officeEdit('d1', { scheduled_start: `${day}T16:00:00Z`, scheduled_end: `${day}T18:00:00Z` });
    await page.dragAndDrop('li[data-job="d1"]', 'section[data-drop="u-t2"]', { sourcePosition: GRIP });
    await page.waitForSelector('#office-msg:has-text("Someone else changed this job")');
    expect(session.control.jobs.get('d1')!.technician).toEqual({ id: 'u-t1', name: 'Tess Tech' });
    expect(await page.textContent('section[data-drop="u-t1"]')).toContain('Carla Customer');
    expect(await axe(page)).toEqual([]);
    expect(await noSideScroll(page)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'office-dispatch-conflict-375.png'), fullPage: true });
    await ctx.close();
  });
});
