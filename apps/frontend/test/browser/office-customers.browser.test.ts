/**
 * Issue 21's customers against the real platform (test/support/real-platform.ts): the office finds a
 * customer by a phone number typed another way, opens their page (quote, job, the contact with the
 * same phone offered as a duplicate), adds a note and merges the duplicate; the ERP has the job's
 * site on the kept customer and the other archived. 1280 and 375 px, axe 0 violations at each step.
 */
import { join } from 'node:path';

import { oneWindowQuote } from '@platform/contracts/examples.js';
import { describe, expect, it } from 'vitest';

import { PASSWORD } from '../support/real-platform.js';
import { axe, DESKTOP } from './chromium.js';
import { bothWidthsChecker, SHOTS, useRealPlatform } from './real-session.js';

const s = useRealPlatform();

const checkBothWidths = bothWidthsChecker('customers');

async function officeBooks(name: string, phone: string, email?: string) {
  const r = await s.p.api(s.p.a.office.token, 'POST', '/jobs', {
    customer: { name, phone, ...(email ? { email } : {}) },
    address: { street: '77 Pine St', city: 'Denver', zip: '80205' },
    windows: [{ room: 'Office', product: 'Cellular shade', width_in: 30, drop_in: 50, mount: 'inside' }],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; name: string; customer: { id: number } };
}

describe('customers in the office', () => {
  it('finds a customer by phone, shows their records, saves a note and merges the duplicate', async () => {
    const { a } = s.p;
    const first = await officeBooks('Carla Cruz', '303-555-0160', 'carla@example.com');
    const second = await officeBooks('Carla C.', '(303) 555 0160');
    const quote = await s.p.api(
      a.office.token,
      'POST',
      '/sales/quotes',
      oneWindowQuote({ customer: { name: 'Carla Cruz', email: 'carla@example.com' } }),
    );
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);

    const ctx = await s.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${s.p.siteOf(a)}/office/customers`);
    await page.fill('#email', a.office.email);
    await page.fill('#password', PASSWORD);
    await page.click('#login button[type=submit]');
    await page.waitForSelector('h1:has-text("Customers")');
    expect(await page.getAttribute('a[href="/office/customers"]', 'aria-current')).toBe('page');
    await page.fill('#customer-q', '3035550160');
    await page.click('#customer-search button[type=submit]');
    await page.waitForSelector('text=2 found for “3035550160”');
    expect(new URL(page.url()).search).toBe('?q=3035550160');
    await checkBothWidths(page, 'search');
    await page.fill('#customer-q', 'nobody-like-this');
    await page.click('#customer-search button[type=submit]');
    await page.waitForSelector('text=No customer matches');
    expect(await axe(page)).toEqual([]);

    await page.goto(`${s.p.siteOf(a)}/office/customers/${first.customer.id}`);
    await page.waitForSelector('h1:has-text("Carla Cruz")');
    const main = (await page.textContent('main'))!;
    expect(main).toContain(first.name);
    expect(main).toContain('Possible duplicates');
    expect(main).toContain('Carla C.');
    expect(await page.locator(`a[href="/office/quotes/${quote.body.id}"]`).count()).toBe(1);
    await page.fill('#customer-note', 'Gate code 4411');
    await page.click('#note-form button[type=submit]');
    await page.waitForSelector('text=Note saved.');
    expect(await page.textContent('main')).toContain('Gate code 4411');
    await checkBothWidths(page, 'page');

    await page.click(`button[data-merge="${second.customer.id}"]`);
    await page.waitForSelector('text=Confirm: merge Carla C. into Carla Cruz');
    await page.click(`button[data-merge="${second.customer.id}"]`);
    await page.waitForSelector('text=Merged: their leads, quotes and jobs are now here.');
    const merged = (await page.textContent('main'))!;
    expect(merged).not.toContain('Possible duplicates');
    expect(merged).toContain(second.name);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'customers-merged-1280.png'), fullPage: true });

    const erp = await s.p.erpOf(a);
    const [dup] = await erp.searchRead('res.partner', [['id', '=', second.customer.id]], {
      fields: ['active'],
      context: { active_test: false },
    });
    expect(dup!.active).toBe(false);
    const job = await s.p.api(a.office.token, 'GET', `/jobs/${second.id}`);
    expect(job.body.customer).toMatchObject({ id: first.customer.id, name: 'Carla Cruz' });
    await ctx.close();
  });
});
