/**
 * A technician at 375 px: signs in, opens today's job, loses signal, adds a note, two 12 MP photos
 * and the customer's signature, completes the job, restarts the app still offline, then gets signal
 * back: every change reaches the control plane once, in order, and the photos are small.
 * The control plane here is a stand-in honouring the contract (test/support/control-standin.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { axe, PHONE_375, sign, takePhoto } from './chromium.js';
import { useStandinSession } from './standin-session.js';

const SHOTS = join(process.cwd(), 'test-results', 'frontend');
mkdirSync(SHOTS, { recursive: true });

const session = useStandinSession();

async function signIn(ctx: BrowserContext): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(`${session.fe.url}/field/jobs`);
  await page.waitForURL('**/field/login');
  await page.fill('#email', session.control.user.email);
  await page.fill('#password', session.control.user.password);
  await page.click('#login button[type=submit]');
  await page.waitForURL('**/field/jobs');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  return page;
}

describe('the field app offline', () => {
  it('keeps every change made without signal across a restart and sends each once when the signal returns', async () => {
    const job = session.control.addJob({
      id: 'job-1',
      customer: { id: 'p1', name: 'Olive Offline', phone: '+1 303 555 0142', email: 'o@example.com' },
    });
    const ctx = await session.browser.newContext(PHONE_375);
    const page = await signIn(ctx);
    await page.waitForSelector('text=Olive Offline');
    expect(session.control.loginTenants).toEqual(['acme']);
    expect(await page.locator('a[href^="https://maps.example"]').count()).toBe(1);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'jobs-375.png'), fullPage: true });
    await page.click('text=Olive Offline');
    await page.waitForSelector('h1:has-text("Olive Offline")');
    expect(await page.locator('a[href="tel:+13035550142"]').count()).toBe(1);
    expect(await page.textContent('main')).toContain('Kitchen: Roller shade, 36 3/8″ × 48″, inside mount, Linen');

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
    await page.fill('#resolution', 'Installed, customer happy');
    await page.click('#complete-form button[type=submit]');
    await page.waitForSelector('#sync-state >> text=5 changes waiting for signal');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'job-offline-375.png'), fullPage: true });
    expect(session.control.applied).toEqual([]);

    // The app restarts with no signal: the service worker's shell and IndexedDB's queue bring it back.
    await page.reload();
    await page.waitForSelector('#sync-state >> text=5 changes waiting for signal');
    expect(await page.textContent('main')).toContain('Left bracket needed a shim');

    await ctx.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.waitForSelector('#sync-state >> text=All changes sent', { timeout: 60_000 });
    await page.screenshot({ path: join(SHOTS, 'job-synced-375.png'), fullPage: true });

    expect(session.control.applied.map((a) => a.what)).toEqual([
      'notes',
      'attachments',
      'attachments',
      'attachments',
      'complete',
    ]);
    const j = session.control.jobs.get(job.id)!;
    expect(j.stage.key).toBe('done');
    expect(j.resolution).toBe('Installed, customer happy');
    expect(j.photos.map((p) => p.kind)).toEqual(['photo_before', 'photo_after']);
    expect(j.signature).not.toBeNull();
    const objects = [...session.control.objects.values()];
    expect(objects).toHaveLength(3);
    for (const o of objects) expect(o.puts).toBe(1);
    // A 12 MP camera frame leaves the phone resized: well under half a megabyte.
    for (const o of objects.filter((x) => x.type === 'image/jpeg')) expect(o.bytes).toBeLessThan(500_000);
    // Every change carried its own Idempotency-Key (asking for a photo's download URL changes nothing).
    const writes = session.control.log.filter(
      (l) => l.method === 'POST' && l.path.startsWith('/jobs/') && !l.path.endsWith('/downloads'),
    );
    expect(writes.every((w) => w.idem)).toBe(true);
    expect(new Set(writes.map((w) => w.idem)).size).toBe(writes.length);
    await ctx.close();
  });

  it("shows a conflict when the office changed the job meanwhile, and keeps the office's version", async () => {
    session.control.addJob({
      id: 'job-2',
      route_order: 2,
      customer: { id: 'p2', name: 'Connie Conflict', phone: '+1 303 555 0143', email: 'c@example.com' },
    });
    const ctx = await session.browser.newContext(PHONE_375);
    const page = await signIn(ctx);
    await page.click('text=Connie Conflict');
    await page.waitForSelector('h1:has-text("Connie Conflict")');
    await ctx.setOffline(true);
    await page.click('button[data-stage="on_site"]');
    await page.waitForSelector('#sync-state >> text=1 change waiting for signal');
    session.control.officeEdit('job-2', { stage: { id: 9, key: 'scheduled', name: 'Rescheduled by office' } });
    await ctx.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.waitForSelector('text=Conflict: the office changed this job', { timeout: 30_000 });
    expect(await page.textContent('main')).toContain('Rescheduled by office');
    expect(session.control.jobs.get('job-2')!.stage.name).toBe('Rescheduled by office');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'job-conflict-375.png'), fullPage: true });
    await page.click('button[data-resolve="discard"]');
    await page.waitForSelector('#sync-state >> text=All changes sent');
    expect(session.control.jobs.get('job-2')!.stage.name).toBe('Rescheduled by office');
    await ctx.close();
  });

  it('sends what an earlier version of the app left waiting only when its technician signs in', async () => {
    const mine = session.control.addJob({
      id: 'job-3',
      customer: { id: 'p3', name: 'Vera Version', phone: '+1 303 555 0144', email: 'v@example.com' },
    });
    const theirs = {
      ...mine,
      id: 'job-4',
      customer: { id: 'p4', name: 'Otto Other', phone: null, email: null },
      technician: { id: 'someone-else', name: 'Sam Other' },
    };
    const ctx = await session.browser.newContext(PHONE_375);
    const page = await ctx.newPage();
    // Version 1 of the phone's database (one unowned list), left with nobody signed in.
    await page.goto(`${session.fe.url}/api/health`);
    await page.evaluate(
      ([jobs]) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('field', 1);
          open.onupgradeneeded = () => {
            const d = open.result;
            d.createObjectStore('kv');
            d.createObjectStore('jobs', { keyPath: 'id' });
            d.createObjectStore('queue', { keyPath: 'seq', autoIncrement: true }).createIndex('byJob', 'jobId');
          };
          open.onsuccess = () => {
            const tx = open.result.transaction(['jobs', 'queue'], 'readwrite');
            for (const j of jobs as { id: string }[]) {
              tx.objectStore('jobs').put(j);
              tx.objectStore('queue').add({
                jobId: j.id,
                change: { kind: 'note', body: `Left by v1 on ${j.id}` },
                key: crypto.randomUUID(),
                createdAt: Date.now(),
                state: 'pending',
                attempts: 0,
              });
            }
            tx.oncomplete = () => (open.result.close(), resolve());
            tx.onerror = () => reject(tx.error);
          };
          open.onerror = () => reject(open.error);
        }),
      [[mine, theirs]],
    );
    const before = session.control.applied.length;
    await page.goto(`${session.fe.url}/field/login`);
    await page.fill('#email', session.control.user.email);
    await page.fill('#password', session.control.user.password);
    await page.click('#login button[type=submit]');
    await page.waitForURL('**/field/jobs');
    await page.waitForSelector('text=Vera Version');
    expect(session.control.applied.slice(before)).toEqual([{ job: 'job-3', what: 'notes' }]);
    expect(session.control.jobs.get('job-3')!.notes.map((n) => n.body)).toEqual(['Left by v1 on job-3']);
    expect(await page.textContent('main')).not.toContain('Otto Other');
    await ctx.close();
  });
});
