/**
 * The office must-show against the real platform (test/support/real-platform.ts): a web lead
 * posted on the tenant's own site reaches its ERP through the worker; the office user finds it in the
 * inbox, builds a three-window quote from the price grids (the ERP's sale order has those three lines
 * and the total the page showed), sends the portal link (it opens the quote), makes the install job
 * and drags it onto the technician for today; the technician at 375 px sees it in the field app.
 */
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { PASSWORD, waitUntil } from '../support/real-platform.js';
import { axe, DESKTOP, PHONE_375 } from './chromium.js';
import { addLivingRoomAndBedroom, fillKitchen } from './quote-builder.steps.js';
import { SHOTS, useRealPlatform } from './real-session.js';

const s = useRealPlatform();

async function signIn(page: Page, path: string, email: string): Promise<void> {
  await page.goto(`${s.p.siteOf(s.p.a)}${path}`);
  await page.waitForSelector('#email');
  await page.fill('#email', email);
  await page.fill('#password', PASSWORD);
  await page.click('#login button[type=submit]');
}

/** Where a card is grabbed: its first line (the customer's name), as a person would, not a form control. */
const GRIP = { x: 24, y: 16 };
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, name), fullPage: true });

/** An office page at 1280 and at 375 px: no axe violation, no sideways scrolling on a phone, a screenshot of each. */
async function checkBothWidths(page: Page, name: string): Promise<void> {
  const desk = page.viewportSize()!;
  expect(await axe(page)).toEqual([]);
  await shot(page, `real-office-${name}-1280.png`);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await axe(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `real-office-${name}-375.png`);
  await page.setViewportSize(desk);
}

describe('the office on the real platform', () => {
  it('turns a web lead into a three-window quote, a portal link and an install job the technician sees', async () => {
    const { a } = s.p;
    // 1. A visitor asks for an estimate on A's own site; the worker delivers it to A's ERP as a lead.
    const posted = await s.p.postOnSite(a, '/api/estimate', 'estimate', {
      name: 'Wendy Web',
      email: 'wendy@example.com',
      phone: '(303) 555-0177',
      zip: '80211',
      products: ['roller-shades'],
      message: 'Three windows, one motorised.',
      form_source: 'estimate-page',
      utm_source: 'google',
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    const lead = await waitUntil('the lead in A’s ERP', async () => {
      const r = await s.p.api(a.office.token, 'GET', '/crm/leads');
      return (r.body?.items as { id: number; contact_name: string | null }[] | undefined)?.find(
        (l) => l.contact_name === 'Wendy Web',
      );
    });

    // 2. The office user, at a desk.
    const office = await s.browser.newContext(DESKTOP);
    const page = await office.newPage();
    await signIn(page, '/office/leads', a.office.email);
    await page.waitForSelector(`a[href="/office/quotes/new?lead=${lead.id}"]`);
    const inbox = (await page.textContent('main'))!;
    expect(inbox).toContain('Wendy Web');
    // Structured attribution is off (the default): the site's origin tag says where the lead came from.
    expect(inbox).toContain('SITE: ACME BLINDS');
    await checkBothWidths(page, 'leads');
    await page.click(`a[href="/office/quotes/new?lead=${lead.id}"]`);
    await page.waitForSelector('h1:has-text("New quote")');
    await page.waitForFunction(() => (document.querySelector('#c-name') as HTMLInputElement | null)?.value);
    expect(await page.inputValue('#c-name')).toBe('Wendy Web');
    expect(await page.inputValue('#c-email')).toBe('wendy@example.com');
    // The lead's ZIP comes with it; the street is what the office adds.
    expect(await page.inputValue('#c-zip')).toBe('80211');
    await page.fill('#c-street', '12 Elm St');
    await page.fill('#c-city', 'Denver');

    // The tenant's first-day grids (control plane default-grids.ts).
    await fillKitchen(page);

    await addLivingRoomAndBedroom(page, 'White');
    expect(await page.textContent('#subtotal')).toBe('$756.00');
    await checkBothWidths(page, 'quote-builder');

    await page.click('#create-quote');
    await page.waitForSelector('h1:has-text("S0")');
    expect(await page.textContent('#q-total')).toBe('$756.00');
    const quoteId = new URL(page.url()).pathname.split('/').pop()!;
    const quote = (await s.p.api(a.office.token, 'GET', `/sales/quotes/${quoteId}`)).body;
    const erp = await s.p.erpOf(a);
    // A's ERP is fresh: this quote is its only sale order.
    const orders = await erp.searchRead('sale.order', [], {
      fields: ['id', 'amount_total', 'order_line'],
    });
    expect(orders).toHaveLength(1);
    expect(orders[0]!.id).toBe(quote.sale_order_id);
    expect(orders[0]!.order_line as number[]).toHaveLength(3);
    expect(orders[0]!.amount_total).toBe(756);
    expect(await axe(page)).toEqual([]);

    await page.click('#send-quote');
    await page.waitForSelector('#office-msg:has-text("Emailed to wendy@example.com")');
    await page.waitForSelector('#portal-link:not([hidden])');
    const url = new URL(await page.inputValue('#portal-url'));
    // The link carries the scheme and port that serve the tenant's host (no proxy runs: the frontend's).
    expect(url.origin).toBe(s.p.siteOf(a));
    const mails = await s.p.db.query<{ template: string; text: string }>(
      `SELECT m.template, o.payload->>'text' AS text FROM email_messages m
         JOIN outbox o ON o.aggregate_id = m.id::text WHERE m.to_address = 'wendy@example.com'`,
    );
    expect(mails.rows.map((m) => m.template)).toEqual(['portal_quote_link']);
    expect(mails.rows[0]!.text).toContain(url.href);
    // The quote was made from the lead: sending it moved the lead along the ERP's pipeline.
    expect((await s.p.api(a.office.token, 'GET', `/crm/leads/${lead.id}`)).body.stage.name).toBe('Proposition');
    const customer = await s.browser.newContext(PHONE_375);
    const portal = await customer.newPage();
    await portal.goto(url.href);
    const portalText = (await portal.textContent('main'))!;
    expect(portalText).toContain(quote.name);
    expect(portalText).toContain('Living room');
    await customer.close();

    // In another tab (or for another person) the quote still knows where the windows are.
    await page.close();
    const page2 = await office.newPage();
    await page2.goto(`${s.p.siteOf(a)}/office/quotes/${quoteId}`);
    await page2.waitForSelector('#open-install');
    expect(await page2.textContent('#q-customer')).toContain('12 Elm St');
    await page2.click('#open-install');
    expect(await page2.inputValue('#i-street')).toBe('12 Elm St');
    expect(await page2.inputValue('#i-zip')).toBe('80211');
    // A part of the address removed: a sentence for a person under the field, nothing sent.
    await page2.fill('#i-city', '');
    await page2.click('#create-job');
    await page2.waitForSelector('[data-err-for="address.city"]:has-text("Type the city of the install.")');
    await page2.fill('#i-city', 'Denver');
    await checkBothWidths(page2, 'quote');
    await page2.click('#create-job');
    await page2.waitForSelector('#office-msg:has-text("Install job")');
    const jobs = (await s.p.api(a.office.token, 'GET', '/jobs')).body.items as {
      id: string;
      sale_order_id: number | null;
    }[];
    const job = jobs.find((j) => j.sale_order_id === quote.sale_order_id)!;
    expect(job).toBeDefined();

    // The dispatch board: the job waits under Needs scheduling, then is dragged onto Terry for today.
    const card = `li[data-job="${job.id}"]`;
    // The list board (the calendar is the default at this width: office-dispatch-calendar.browser.test.ts).
    await page2.goto(`${s.p.siteOf(a)}/office/dispatch?view=list`);
    await page2.waitForSelector(`section[data-drop="unscheduled"] ${card}`);
    await page2.fill('#drop-time', '10:30');
    await checkBothWidths(page2, 'dispatch');
    // Tall enough to show both ends: Playwright scrolls to the target after pressing, which Chromium
    // then takes as the start of a drag from whatever moved under the pointer.
    await page2.setViewportSize({ width: 1280, height: 1600 });
    await page2.dragAndDrop(card, `section[data-drop="${a.technician.id}"]`, { sourcePosition: GRIP });
    await page2.waitForSelector('#office-msg:has-text("assigned to Terry Tech")');
    expect(await page2.textContent(`section[data-drop="${a.technician.id}"]`)).toContain('Wendy Web');
    const day = new Date().toISOString().slice(0, 10);
    const atLocal = (time: string) => page2.evaluate(([d, t]) => new Date(`${d}T${t}`).getTime(), [day, time]);
    const shown = async () => (await s.p.api(a.office.token, 'GET', `/jobs/${job.id}`)).body;
    const dropped = await shown();
    expect(dropped.technician.id).toBe(a.technician.id);
    expect(dropped.stage.key).toBe('scheduled');
    expect(Date.parse(dropped.scheduled_start)).toBe(await atLocal('10:30'));

    // The keyboard does the same: back to Needs scheduling, then Terry at 14:00 with the card's own controls.
    await page2.focus(`button[data-unschedule="${job.id}"]`);
    await page2.keyboard.press('Enter');
    await page2.waitForSelector(`section[data-drop="unscheduled"] ${card}`);
    expect((await shown()).stage.key).toBe('new');
    await page2.fill(`#start-${job.id}`, `${day}T14:00`);
    await page2.focus(`button[data-reschedule="${job.id}"]`);
    await page2.keyboard.press('Enter');
    await page2.waitForSelector('#office-msg:has-text("Scheduled")');
    await page2.waitForSelector(`section[data-drop="${a.technician.id}"] ${card}`);
    const keyed = await shown();
    expect(keyed.technician.id).toBe(a.technician.id);
    expect(keyed.stage.key).toBe('scheduled');
    expect(Date.parse(keyed.scheduled_start)).toBe(await atLocal('14:00'));
    await page2.setViewportSize({ width: 1280, height: 800 });
    await checkBothWidths(page2, 'dispatch-scheduled');
    await office.close();

    // 3. The technician, on a phone.
    const field = await s.browser.newContext(PHONE_375);
    const phone = await field.newPage();
    await signIn(phone, '/field/jobs', a.technician.email);
    await phone.waitForURL('**/field/jobs');
    await phone.waitForSelector('text=Wendy Web');
    expect(await axe(phone)).toEqual([]);
    await shot(phone, 'real-office-job-in-field-375.png');
    await phone.click('text=Wendy Web');
    await phone.waitForSelector('h1:has-text("Wendy Web")');
    const jobText = (await phone.textContent('main'))!;
    expect(jobText).toMatch(/2:00\s?PM/);
    expect(jobText).toContain('Kitchen');
    expect(jobText).toContain('Living room');
    expect(jobText).toContain('Bedroom');
    // The checklist writes sizes as the window list does: a tape measure's 1/8ths, not decimals.
    expect(jobText).toContain('Install Kitchen: Roller Shade, 36 1/8" × 47 1/8", inside mount');
    expect(jobText).not.toMatch(/\d\.\d+"/);
    expect(await axe(phone)).toEqual([]);
    await shot(phone, 'real-office-job-page-375.png');
    await field.close();
  });
});
