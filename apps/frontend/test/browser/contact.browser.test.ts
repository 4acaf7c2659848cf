/**
 * A visitor writes to the tenant from /contact: the page carries the tenant's branding and
 * contact details, empty fields are named, the bot check (the local siteverify stand-in, as on
 * the landing host) passes a person, and one helpdesk ticket reaches the control plane for the
 * host's tenant. A post without a bot-check token is refused and files nothing.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { axe, DESKTOP, PHONE_375 } from './chromium.js';
import { useStandinSession } from './standin-session.js';

const SHOTS = join(process.cwd(), 'test-results', 'frontend');
const session = useStandinSession();

describe('the contact page', () => {
  for (const [label, device] of [
    ['375 px', PHONE_375],
    ['desktop', DESKTOP],
  ] as const) {
    it(`files one helpdesk ticket for the host's tenant (${label})`, async () => {
      const before = session.control.tickets.length;
      const ctx = await session.browser.newContext(device);
      const page = await ctx.newPage();
      await page.goto(`${session.fe.url}/contact`);
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
      expect(session.control.tickets.length).toBe(before + 1);
      const t = session.control.tickets.at(-1)!;
      const acme = (await session.fe.db.db.query<{ id: string }>(`SELECT id FROM tenants WHERE slug = 'acme'`)).rows[0]!
        .id;
      expect(t.tenant).toBe(acme);
      expect(t.body).toMatchObject({ tenant_id: acme, name: 'Vera Visitor', subject: 'Motor stopped' });
      expect(t.body).not.toHaveProperty('captcha_token');
      await ctx.close();
    });
  }

  it('refuses a post without a bot-check token and files nothing', async () => {
    const before = session.control.tickets.length;
    const r = await fetch(`${session.fe.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bot', email: 'bot@example.com', subject: 'x', description: 'y' }),
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { code: string }).code).toBe('CAPTCHA_MISSING');
    const bad = await fetch(`${session.fe.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', email: 'not-an-email', subject: 'x', description: 'y', captcha_token: 't' }),
    });
    expect(bad.status).toBe(422);
    const fields = ((await bad.json()) as { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'email']));
    expect(session.control.tickets.length).toBe(before);
  });
});
