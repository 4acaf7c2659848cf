/**
 * The field must-show against the real platform (control plane, embedded ERP, worker,
 * frontend; test/support/real-platform.ts): a technician of a seeded tenant at 375 px opens today's
 * job, loses signal, adds a note, two photos and a signature, completes the job, restarts the app
 * still offline, then gets signal back. The ERP shows the job done with its resolution, the object
 * store holds the photos and the signature once each, and the team chat heard of it once.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { PASSWORD, waitUntil } from '../support/real-platform.js';
import { axe, DESKTOP, PHONE_375, sign, takePhoto } from './chromium.js';
import { SHOTS, useRealPlatform } from './real-session.js';

const s = useRealPlatform();

/** Every file under a directory, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));

/** The office makes a job for the technician today (POST /jobs), starting at `hour` UTC for two hours. */
async function officeCreatesJob(customer: string, hour: number): Promise<{ id: string; name: string }> {
  const day = new Date().toISOString().slice(0, 10);
  const created = await s.p.api(s.p.a.office.token, 'POST', '/jobs', {
    customer: { name: customer, phone: '+1 303 555 0142', email: 'customer@example.com' },
    address: { street: '1420 Larimer St', city: 'Denver', zip: '80202', state: 'CO' },
    scheduled_start: `${day}T${hour}:00:00Z`,
    scheduled_end: `${day}T${hour + 2}:00:00Z`,
    technician_id: s.p.a.technician.id,
    windows: [
      { room: 'Kitchen', product: 'Roller shade', width_in: 36.375, drop_in: 48, mount: 'inside', colour: 'Linen' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function technicianSignsIn(ctx: BrowserContext): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(`${s.p.siteOf(s.p.a)}/field/jobs`);
  await page.waitForURL('**/field/login');
  expect(await axe(page)).toEqual([]);
  await page.fill('#email', s.p.a.technician.email);
  await page.fill('#password', PASSWORD);
  await page.click('#login button[type=submit]');
  await page.waitForURL('**/field/jobs');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  return page;
}

describe('the field app on the real platform', () => {
  it('completes a job made offline once the signal returns: ERP done, three objects, one chat message', async () => {
    const { a } = s.p;
    const job = await officeCreatesJob('Olive Offline', 15);
    // The change feed must have seen the order before it moves, or the move is part of its baseline.
    await waitUntil('change feed baseline of A', async () => {
      const r = await s.p.db.query(
        `SELECT 1 FROM erp_change_cursors WHERE tenant_id = $1 AND model = 'fsm.order' AND baseline_done`,
        [a.id],
      );
      return r.rows.length ? true : undefined;
    });

    const ctx = await s.browser.newContext(PHONE_375);
    const page = await technicianSignsIn(ctx);
    await page.waitForSelector('text=Olive Offline');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'real-jobs-375.png'), fullPage: true });
    await page.click('text=Olive Offline');
    await page.waitForSelector('h1:has-text("Olive Offline")');
    expect(await page.textContent('main')).toContain('Kitchen: Roller shade, 36 3/8″ × 48″, inside mount, Linen');
    expect(await axe(page)).toEqual([]);

    await ctx.setOffline(true);
    await page.fill('#note', 'Left bracket needed a shim');
    await page.click('#note-form button[type=submit]');
    await page.waitForSelector('text=(waiting to send)');
    await takePhoto(page, '#photo-before', 10);
    await page.waitForSelector('text=1 waiting to send');
    await takePhoto(page, '#photo-after', 200);
    await page.waitForSelector('text=2 waiting to send');
    await sign(page, '#sig');
    await page.click('#sig-save');
    await page.waitForSelector('text=Signed (waiting to send)');
    await page.fill('#resolution', 'Installed two roller shades, customer happy');
    await page.click('#complete-form button[type=submit]');
    await page.waitForSelector('#sync-state >> text=5 changes waiting for signal');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'real-job-offline-375.png'), fullPage: true });

    // The app restarts with no signal: the service worker's shell and IndexedDB's queue bring it back.
    await page.reload();
    await page.waitForSelector('#sync-state >> text=5 changes waiting for signal');
    expect(await page.textContent('main')).toContain('Left bracket needed a shim');
    expect(await axe(page)).toEqual([]);

    await ctx.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.waitForSelector('#sync-state >> text=All changes sent', { timeout: 60_000 });
    // The sent photos stay on screen, now from the store through short-lived download URLs.
    await page.waitForSelector('img[alt="Photo 2 sent"]', { timeout: 30_000 });
    await page.waitForFunction(() => {
      const imgs = Array.from(document.querySelectorAll<HTMLImageElement>('img[alt$=" sent"]'));
      return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
    });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'real-job-synced-375.png'), fullPage: true });
    await ctx.close();

    const erp = await s.p.erpOf(a);
    const [order] = await erp.searchRead('fsm.order', [['name', '=', job.name]], {
      fields: ['stage_id', 'resolution'],
    });
    expect((order!.stage_id as [number, string])[1]).toBe('Completed');
    expect(String(order!.resolution)).toContain('Installed two roller shades, customer happy');

    const objectsDir = join(s.p.dataDir, 'objects', a.id, 'jobs', job.id);
    const stored = filesUnder(objectsDir).sort();
    expect(stored.map((f) => f.split('/')[0])).toEqual(['photo_after', 'photo_before', 'signature']);
    const shown = (await s.p.api(a.office.token, 'GET', `/jobs/${job.id}`)).body;
    expect(shown.stage.key).toBe('done');
    expect(shown.photos.map((ph: { kind: string }) => ph.kind).sort()).toEqual(['photo_after', 'photo_before']);
    expect(shown.signature?.key).toContain('/signature/');
    expect(shown.notes.map((n: { body: string }) => n.body)).toEqual(['Left bracket needed a shim']);

    // The office opens the job: both photos and the signature show (short-lived download URLs),
    // its history says it was completed, and a completed job offers nothing to reschedule.
    const desk = await s.browser.newContext(DESKTOP);
    const office = await desk.newPage();
    await office.goto(`${s.p.siteOf(a)}/office/jobs/${job.id}`);
    await office.waitForSelector('#email');
    await office.fill('#email', a.office.email);
    await office.fill('#password', PASSWORD);
    await office.click('#login button[type=submit]');
    await office.waitForSelector('#job-signature img');
    const loaded = () =>
      office.$$eval('#job-photos img, #job-signature img', (imgs) =>
        imgs.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
      );
    await waitUntil('the images to load', async () => ((await loaded()).every(Boolean) ? true : undefined));
    expect(await loaded()).toEqual([true, true, true]);
    expect(await office.$('#reschedule')).toBeNull();
    expect(await office.$('#unschedule')).toBeNull();
    expect(await office.textContent('#job-history')).toContain('Completed');
    expect(await office.textContent('main')).toContain('Left bracket needed a shim');
    const link = await office.getAttribute('#job-signature a[download]', 'href');
    const got = await office.evaluate(async (u) => (await fetch(u!)).status, link);
    expect(got).toBe(200);
    expect(await axe(office)).toEqual([]);
    await office.screenshot({ path: join(SHOTS, 'real-office-job-1280.png'), fullPage: true });
    await office.setViewportSize({ width: 375, height: 800 });
    expect(await axe(office)).toEqual([]);
    expect(await office.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await office.screenshot({ path: join(SHOTS, 'real-office-job-375.png'), fullPage: true });
    await desk.close();

    const completions = () =>
      s.p.chat.messages.filter((m) => m.text?.includes(job.name) && m.text.includes('Completed'));
    await waitUntil('the chat message', async () => (completions().length ? true : undefined));
    await new Promise((r) => setTimeout(r, 3000)); // more passes of the feed and the outbox: still one
    expect(completions()).toHaveLength(1);
  });

  it("shows the office's reschedule as a conflict and keeps the office's version", async () => {
    const job = await officeCreatesJob('Connie Conflict', 19);
    const ctx = await s.browser.newContext(PHONE_375);
    const page = await technicianSignsIn(ctx);
    await page.click('text=Connie Conflict');
    await page.waitForSelector('h1:has-text("Connie Conflict")');
    await ctx.setOffline(true);
    await page.click('button[data-stage="on_site"]');
    await page.waitForSelector('#sync-state >> text=1 change waiting for signal');
    // The ERP stamps versions to the second: the office's change must land in a later one.
    await new Promise((r) => setTimeout(r, 1100));
    const day = new Date().toISOString().slice(0, 10);
    const moved = await s.p.api(s.p.a.office.token, 'POST', `/jobs/${job.id}/schedule`, {
      scheduled_start: `${day}T21:00:00Z`,
      scheduled_end: `${day}T23:00:00Z`,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await ctx.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.waitForSelector('text=Conflict: the office changed this job', { timeout: 30_000 });
    expect(await page.textContent('[role=alert]')).toContain('9:00 PM');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'real-job-conflict-375.png'), fullPage: true });
    await page.click('button[data-resolve="discard"]');
    await page.waitForSelector('#sync-state >> text=All changes sent');
    const [order] = await (
      await s.p.erpOf(s.p.a)
    ).searchRead('fsm.order', [['name', '=', job.name]], {
      fields: ['stage_id'],
    });
    expect((order!.stage_id as [number, string])[1]).toBe('Scheduled');
    await ctx.close();
  });
});
