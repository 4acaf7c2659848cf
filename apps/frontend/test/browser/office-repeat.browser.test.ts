/**
 * Recurring jobs on the office job page, against the real platform: the owner makes a job repeat
 * (a preset, a refused custom rule said beside its field, the next dates of each choice), pauses and
 * resumes it, changes the whole series; after a downgrade to Free the series says it is paused by the plan and names the plan
 * that unlocks it, another job offers no Repeat form, and the series is ended (two presses). 1280 and 375 px, axe 0 at each step.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { PASSWORD } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const checkBothWidths = bothWidthsChecker('repeat');

async function jobTomorrow(token: string, name: string): Promise<string> {
  const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const r = await s.p.api(token, 'POST', '/jobs', {
    customer: { name, phone: '303-555-0190' },
    address: { street: '12 Elm St', city: 'Denver', zip: '80206' },
    scheduled_start: `${day}T15:00:00Z`,
    scheduled_end: `${day}T17:00:00Z`,
    windows: [{ room: 'Porch', product: 'Exterior shutter', width_in: 40, drop_in: 60, mount: 'outside' }],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}

const nextDates = (page: Page) => page.locator('#r-next li').count();

describe('the Repeat section of a job', () => {
  it('makes a job repeat, pauses and resumes it, and after a downgrade says the plan paused it', async () => {
    const { b } = s.p;
    const jobId = await jobTomorrow(b.owner.token, 'Rita Repeat');
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${s.p.siteOf(b)}/office/jobs/${jobId}`);
    await page.fill('#email', b.owner.email);
    await page.fill('#password', PASSWORD);
    await page.click('#login button[type=submit]');
    await page.waitForSelector('#repeat-form');
    expect(await page.inputValue('#r-preset')).toBe('every_12_months');
    expect(await nextDates(page)).toBe(5);
    await checkBothWidths(page, 'form');

    // A custom rule that is not one is refused beside its field.
    await page.selectOption('#r-preset', 'custom');
    await page.waitForSelector('#r-rule', { state: 'visible' });
    await page.fill('#r-rule', 'every spring');
    await page.click('#repeat-save');
    await page.waitForSelector('#r-rule[aria-invalid="true"]');
    expect(await page.textContent('#r-rule-err')).toMatch(/RRULE/);
    await checkBothWidths(page, 'refused');
    await page.fill('#r-rule', 'FREQ=MONTHLY;INTERVAL=3');
    await page.press('#r-rule', 'Tab');
    await page.waitForSelector('#r-next li');

    await page.selectOption('#r-preset', 'every_6_months');
    await page.fill('#r-title', 'Motor check');
    await page.click('#repeat-save');
    await page.waitForSelector('#repeat-state:has-text("Repeating")');
    expect(await page.textContent('#office-msg')).toMatch(/repeats/);
    expect(await page.locator('#repeat-series li').count()).toBe(5);
    await checkBothWidths(page, 'series');

    // The whole series: every 12 months from now on.
    await page.click('#job-repeat summary');
    await page.selectOption('#r-preset', 'every_12_months');
    await page.click('#repeat-save');
    await page.waitForSelector('#repeat-series:has-text("Every 12 months")');
    expect(await page.textContent('#office-msg')).toMatch(/series is changed/);

    await page.click('#repeat-pause');
    await page.waitForSelector('#repeat-state:has-text("Paused")');
    await page.click('#repeat-resume');
    await page.waitForSelector('#repeat-state:has-text("Repeating")');

    // The owner moves to Free: the series stops and says why; nothing is removed.
    const down = await s.p.api(b.owner.token, 'PUT', `/api/tenants/${b.id}/plan`, { plan: 'free' });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    await page.reload();
    await page.waitForSelector('#repeat-state:has-text("Paused by your plan")');
    expect(await page.textContent('#repeat-reason')).toMatch(/your plan no longer includes recurring jobs/);
    expect(await page.textContent('#job-repeat')).toMatch(/Starter plan unlocks recurring jobs/);
    expect(await page.locator('#repeat-resume').count()).toBe(0);
    await checkBothWidths(page, 'downgraded');

    // On Free, another job is not offered a series: the reason and the plan instead.
    const other = await jobTomorrow(b.owner.token, 'Fred Free');
    await page.goto(`${s.p.siteOf(b)}/office/jobs/${other}`);
    await page.waitForSelector('#job-repeat #repeat-reason');
    expect(await page.locator('#repeat-form').count()).toBe(0);
    expect(await page.textContent('#job-repeat')).toMatch(/Starter plan unlocks/);
    await checkBothWidths(page, 'free');

    // Ending takes a second press; the series then says it has ended.
    await page.goto(`${s.p.siteOf(b)}/office/jobs/${jobId}`);
    await page.click('#repeat-end');
    await page.waitForSelector('#repeat-end:has-text("Confirm")');
    await page.click('#repeat-end');
    await page.waitForSelector('#repeat-state:has-text("Ended")');
    expect(await page.locator('#repeat-pause, #repeat-resume, #repeat-end').count()).toBe(0);
    await ctx.close();
  });
});
