/**
 * Issue 21's shared phone, against the real platform (test/support/real-platform.ts) at 375 px:
 * technician A makes changes without signal and signs out; B signs in on the same phone and sees
 * only B's own job, and nothing of A's is sent with B's token; when A signs in again, A's waiting
 * changes reach the ERP with no button pressed, and A does not see B's job.
 */
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { PASSWORD, type Person, waitUntil } from '../support/real-platform.js';
import { axe, PHONE_375 } from './chromium.js';
import { SHOTS, useRealPlatform } from './real-session.js';

const s = useRealPlatform();

/** The office makes a job today at `hour` UTC for two hours, for one technician, at its own street. */
async function officeCreatesJob(customer: string, street: string, hour: number, technician: Person) {
  const day = new Date().toISOString().slice(0, 10);
  const created = await s.p.api(s.p.a.office.token, 'POST', '/jobs', {
    customer: { name: customer, phone: '+1 303 555 0142' },
    address: { street, city: 'Denver', zip: '80202', state: 'CO' },
    scheduled_start: `${day}T${hour}:00:00Z`,
    scheduled_end: `${day}T${hour + 2}:00:00Z`,
    technician_id: technician.id,
    windows: [{ room: 'Den', product: 'Roller shade', width_in: 30, drop_in: 40, mount: 'inside', colour: 'Linen' }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string; name: string };
}

async function signIn(page: Page, who: Person): Promise<void> {
  await page.goto(`${s.p.siteOf(s.p.a)}/field/login`);
  await page.fill('#email', who.email);
  await page.fill('#password', PASSWORD);
  await page.click('#login button[type=submit]');
  await page.waitForURL('**/field/jobs');
  await page.waitForSelector('h1:has-text("My jobs")');
}

async function signOut(page: Page): Promise<void> {
  await page.click('#logout');
  await page.waitForURL('**/field/login');
}

const jobAsOffice = async (id: string) => (await s.p.api(s.p.a.office.token, 'GET', `/jobs/${id}`)).body;

describe('one phone, two technicians', () => {
  it("never shows or sends one technician's jobs or queued work as the other; A's work goes when A is back", async () => {
    const { a } = s.p;
    const terry = a.technician;
    const tess = await s.p.invite(a, 'tess@acme-a.test', 'technician', 'Tess Tech');
    const terrysJob = await officeCreatesJob('Alma Aspen', '1 Aspen Way', 15, terry);
    const tesssJob = await officeCreatesJob('Bruno Birch', '2 Birch Rd', 17, tess);

    const ctx = await s.browser.newContext(PHONE_375);
    const page = await ctx.newPage();
    // Every call the phone makes about Terry's job, with the token it carried.
    const callsOnTerrysJob: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes(`/api/control/jobs/${terrysJob.id}`)) callsOnTerrysJob.push(r.headers().authorization ?? '');
    });

    await signIn(page, terry);
    await page.click('text=Alma Aspen');
    await page.waitForSelector('h1:has-text("Alma Aspen")');
    await ctx.setOffline(true);
    // The app has seen the signal go (its offline redraw is done) before the technician acts.
    await page.waitForSelector('#net', { state: 'visible' });
    await page.click('button[data-stage="on_site"]');
    await page.fill('#note', 'Bracket on order, back Tuesday');
    await page.click('#note-form button[type=submit]');
    await page.waitForSelector('#sync-state >> text=2 changes waiting for signal');
    await page.click('text=← My jobs');
    await signOut(page);
    expect(await page.textContent('main')).toContain('2 changes stay on this phone');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'shared-phone-signed-out-375.png'), fullPage: true });
    await ctx.setOffline(false);

    callsOnTerrysJob.length = 0;
    await signIn(page, tess);
    await page.waitForSelector('text=Bruno Birch');
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.waitForSelector('text=All changes sent');
    const tesssList = (await page.textContent('main')) ?? '';
    for (const terrys of ['Alma Aspen', '1 Aspen Way', terrysJob.name, 'waiting'])
      expect(tesssList).not.toContain(terrys);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'shared-phone-second-technician-375.png'), fullPage: true });
    await page.goto(`${s.p.siteOf(a)}/field/jobs/${encodeURIComponent(terrysJob.id)}`);
    await page.waitForSelector('h1:has-text("Job not found")');
    expect(await page.textContent('main')).not.toContain('Bracket on order');
    expect(callsOnTerrysJob).toEqual([]);
    const untouched = await jobAsOffice(terrysJob.id);
    expect(untouched.stage.key).toBe('scheduled');
    expect(untouched.notes).toEqual([]);
    await page.goto(`${s.p.siteOf(a)}/field/jobs`);
    await page.waitForSelector('#logout');
    await signOut(page);

    // Terry signs in again and presses nothing else: the waiting changes go on their own.
    await signIn(page, terry);
    const sent = await waitUntil('Terry’s changes in the ERP', async () => {
      const j = await jobAsOffice(terrysJob.id);
      return j.stage.key === 'on_site' && j.notes.length ? j : undefined;
    });
    expect(sent.notes.map((n: { body: string }) => n.body)).toEqual(['Bracket on order, back Tuesday']);
    expect(callsOnTerrysJob.every((auth) => auth === callsOnTerrysJob[0])).toBe(true);
    const [order] = await (
      await s.p.erpOf(a)
    ).searchRead('fsm.order', [['name', '=', terrysJob.name]], { fields: ['stage_id'] });
    expect((order!.stage_id as [number, string])[1]).toBe('In Progress');
    await page.waitForSelector('text=All changes sent');
    const terrysList = (await page.textContent('main')) ?? '';
    expect(terrysList).toContain('Alma Aspen');
    expect(terrysList).not.toContain('Bruno Birch');
    expect(await jobAsOffice(tesssJob.id)).toMatchObject({ notes: [] });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'shared-phone-back-375.png'), fullPage: true });
    await ctx.close();
  });
});
