/**
 * A visitor writes to the tenant from /contact: the page carries the tenant's branding and
 * contact details, empty fields are named, the bot check (the local siteverify stand-in, as on
 * the landing host) passes a person, and one helpdesk ticket reaches the control plane for the
 * host's tenant. A post without a bot-check token is refused and files nothing.
 */
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ControlStandin } from '../support/control-standin.js';
import { startTestFrontend, type TestFrontend } from '../support/frontend-harness.js';
import { axe, DESKTOP, launchChromium, PHONE_375 } from './chromium.js';

const SHOTS = join(process.cwd(), 'test-results', 'frontend');
let control: ControlStandin;
let fe: TestFrontend;
let browser: Browser;

beforeAll(async () => {
  control = new ControlStandin();
  await control.start();
  [fe, browser] = await Promise.all([startTestFrontend(control.url), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await fe?.close();
  await control?.close();
});

describe('the contact page', () => {
  for (const [label, device] of [
    ['375 px', PHONE_375],
    ['desktop', DESKTOP],
  ] as const) {
    it(`files one helpdesk ticket for the host's tenant (${label})`, async () => {
      const before = control.tickets.length;
      const ctx = await browser.newContext(device);
      const page = await ctx.newPage();
      await page.goto(`${fe.url}/contact`);
      expect(await page.textContent('main')).toContain('303-555-0100');
      expect(await axe(page)).toEqual([]);
      await page.click('#contact-form button[type=submit]');
      await page.waitForSelector('#c-msg:has-text("Please fill in: name, email, subject, description")');
      expect(await page.getAttribute('#c-email', 'aria-invalid')).toBe('true');
      expect(await axe(page)).toEqual([]);
      await page.fill('#c-name', 'Vera Visitor');
      await page.fill('#c-email', 'vera@example.com');
      await page.fill('#c-subject', 'Motor stopped');
      await page.fill('#c-desc', 'The living room shade motor stopped working.');
      await page.click('#contact-form button[type=submit]');
      await page.waitForSelector('text=we got your message');
      await page.screenshot({ path: join(SHOTS, `contact-${label.replace(' ', '')}.png`), fullPage: true });
      expect(control.tickets.length).toBe(before + 1);
      const t = control.tickets.at(-1)!;
      const acme = (await fe.db.db.query<{ id: string }>(`SELECT id FROM tenants WHERE slug = 'acme'`)).rows[0]!.id;
      expect(t.tenant).toBe(acme);
      expect(t.body).toMatchObject({ tenant_id: acme, name: 'Vera Visitor', subject: 'Motor stopped' });
      expect(t.body).not.toHaveProperty('captcha_token');
      await ctx.close();
    });
  }

  it('refuses a post without a bot-check token and files nothing', async () => {
    const before = control.tickets.length;
    const r = await fetch(`${fe.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bot', email: 'bot@example.com', subject: 'x', description: 'y' }),
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { code: string }).code).toBe('CAPTCHA_MISSING');
    const bad = await fetch(`${fe.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', email: 'not-an-email', subject: 'x', description: 'y', captcha_token: 't' }),
    });
    expect(bad.status).toBe(422);
    const fields = ((await bad.json()) as { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'email']));
    expect(control.tickets.length).toBe(before);
  });
});
