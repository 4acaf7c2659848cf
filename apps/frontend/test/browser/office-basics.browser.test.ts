/**
 * Issue 21's office basics against the real platform (test/support/real-platform.ts): the header
 * names who is signed in and the company, the global search finds a customer, their quote and their
 * job by a phone number typed another way (and says what to try when nothing matches), Sign out
 * signs out; a new company's empty screens say what to do. 1280 and 375 px, axe 0 violations.
 */
import { DEN_JOB_WINDOW, oneWindowQuote } from '@platform/contracts/examples.js';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { SeededTenant } from '../support/real-platform.js';
import { axe, DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();

const signIn = (ctx: BrowserContext, t: SeededTenant, path: string, email: string) =>
  signInToOffice(s, ctx, t, path, email);
const checkBothWidths = bothWidthsChecker('office');

describe('office basics', () => {
  it('shows who is signed in, searches everything by phone, and signs out', async () => {
    const { a } = s.p;
    const job = await s.p.api(a.office.token, 'POST', '/jobs', {
      customer: { name: 'Ivy Index', phone: '303-555-0199', email: 'ivy@example.com' },
      address: { street: '8 Aspen Ct', city: 'Denver', zip: '80206' },
      windows: [DEN_JOB_WINDOW],
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    const quote = await s.p.api(
      a.office.token,
      'POST',
      '/sales/quotes',
      oneWindowQuote({ partner_id: job.body.customer.id }),
    );
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);

    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signIn(ctx, a, '/office/leads', a.office.email);
    expect(await page.textContent('#office-bar')).toContain('Signed in as Olga Office (Office) · Acme Blinds');
    await page.fill('#office-q', '(303) 555.0199');
    await page.click('#office-search button[type=submit]');
    await page.waitForURL('**/office/search?q=*');
    await page.waitForSelector('h1:has-text("Search")');
    await page.waitForSelector(`a[href="/office/customers/${job.body.customer.id}"]`);
    expect(await page.locator(`a[href="/office/quotes/${quote.body.id}"]`).count()).toBe(1);
    expect(await page.textContent('main')).toContain(job.body.name);
    expect(await page.inputValue('#office-q')).toBe('(303) 555.0199');
    await checkBothWidths(page, 'search');

    await page.fill('#office-q', 'zz-nothing-here');
    await page.click('#office-search button[type=submit]');
    await page.waitForSelector('text=Nothing matches “zz-nothing-here”');
    expect(await axe(page)).toEqual([]);

    await page.click('#sign-out');
    await page.waitForSelector('#login');
    expect(await page.locator('#office-bar').count()).toBe(0);
    await page.goto(`${s.p.siteOf(a)}/office/customers`);
    await page.waitForSelector('#login');
    expect(await axe(page)).toEqual([]);
    await ctx.close();
  });

  it("tells a new company's owner what to do on empty screens", async () => {
    const { b } = s.p;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signIn(ctx, b, '/office/customers', b.owner.email);
    await page.waitForSelector('text=No customers yet');
    expect(await page.textContent('#office-bar')).toContain(`Signed in as ${b.owner.email} (Owner) · Bayside Shades`);
    await checkBothWidths(page, 'customers-empty');
    await page.goto(`${s.p.siteOf(b)}/office/dispatch`);
    await page.waitForSelector('text=No technicians yet');
    expect(await page.textContent('main')).toContain('Nothing waiting');
    await checkBothWidths(page, 'dispatch-empty');
    await ctx.close();
  });
});
