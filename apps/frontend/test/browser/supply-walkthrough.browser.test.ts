/**
 * Issue 28's must-show in Chromium, on the real platform with `npm start`'s stand-ins: a measurer
 * without signal at 375 px measures four windows (one too wide, flagged), gets signal back; the office
 * opens the ONE draft quote (three priced, the fourth flagged) at 1280 px and sends it; the customer at
 * 375 px accepts and pays the 50 % deposit with 4242 on the Stripe stand-in; that releases TWO purchase
 * orders to two suppliers with the exact sizes; the office confirms both (the team chat hears each),
 * receives one window, then the rest, then the other order; the install job turns "Ready to fit"; the
 * fitter completes it at 375 px recording two brackets; the Stock screen shows two fewer on hand and
 * the bracket, now under its reorder point, on the reorder list.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { PASSWORD, waitUntil } from '../support/real-platform.js';
import { DESKTOP, PHONE_375, sign } from './chromium.js';
import { measure, type MeasuredWindow } from './field-measure.steps.js';
import { signInToOffice } from './office-session.js';
import { payWithCard, tenantTakesCards } from './payments.steps.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';
import { ok } from './stock.steps.js';
import { officeSetsUpSupply } from './supply-walkthrough.steps.js';

const s = useRealPlatform({ localProviders: true });
const checkBothWidths = bothWidthsChecker('supplywalk');
const CUSTOMER = { name: 'Sam Supply', phone: '+1 303 555 0188', email: 'sam@example.com' };
const ADDRESS = { street: '12 Pine St', city: 'Denver', zip: '80205', state: 'CO' };

/** The four windows measured: the fourth too wide for the roller shade's grid. */
const WINDOWS: MeasuredWindow[] = [
  { room: 'Kitchen', product: 'roller-shade', width: ['35', '4'], drop: ['47', '1'] },
  { room: 'Bedroom', product: 'roller-shade', width: ['40', '0'], drop: ['50', '0'] },
  { room: 'Study', product: 'cellular-shade', width: ['30', '2'], drop: ['40', '0'] },
  { room: 'Lounge', product: 'roller-shade', width: ['130', '0'], drop: ['60', '0'] },
];

/** The field app's job list (signing in first on a phone that is not signed in), then the job. */
async function technicianOpens(ctx: BrowserContext, jobId: string): Promise<Page> {
  const page = await ctx.newPage();
  const link = `a[href="/field/jobs/${encodeURIComponent(jobId)}"]`;
  await page.goto(`${s.p.siteOf(s.p.a)}/field/jobs`);
  await page.waitForSelector(`#login, ${link}`);
  if (await page.locator('#login').count()) {
    await page.fill('#email', s.p.a.technician.email);
    await page.fill('#password', PASSWORD);
    await page.click('#login button[type=submit]');
    await page.waitForURL('**/field/jobs');
  }
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.click(link);
  return page;
}

/** Set-up that is not the walkthrough's subject, by API: cards (a 50 % deposit), supplier orders told to the chat. */
async function cardsAndChat(): Promise<void> {
  const { a } = s.p;
  await tenantTakesCards(s);
  await ok(s.p.api(a.owner.token, 'PUT', `/api/tenants/${a.id}/integrations/chat`, { enable_po: true }));
}

/**
 * What the team chat heard. A's chat space is a chat stand-in either way: the seed's receiver, or
 * `npm start`'s own (its console's `chat`) when `npm start` re-aimed A's loopback webhook after the
 * seed set it (which of the two comes first is a race of the platform's start).
 */
const chatHeard = async () => [
  ...s.p.chat.messages.map((m) => m.text ?? ''),
  ...((await (await fetch(`${s.p.localConsole!}/`)).json()) as { chat: { text: string }[] }).chat.map((m) => m.text),
];

const bracket = async () =>
  ((await s.p.api(s.p.a.office.token, 'GET', '/inventory/parts')).body.items as { name: string }[]).find(
    (x) => x.name === 'Steel bracket',
  ) as { on_hand: number; reserved: number } | undefined;

describe('from the measuring visit to the fitted windows and the stock they used', () => {
  it('measures offline, quotes, takes the deposit, orders, receives, fits and counts the brackets', async () => {
    const { a } = s.p;
    const desk = await s.browser.newContext(DESKTOP);
    // Reordered under 9: the two roller shades reserve two of the ten, leaving eight available.
    await Promise.all([cardsAndChat(), officeSetsUpSupply(s, 9)]);
    const day = new Date().toISOString().slice(0, 10);
    const visit = await ok(
      s.p.api(a.office.token, 'POST', '/jobs', {
        ...{ customer: CUSTOMER, address: ADDRESS, kind: 'measure', technician_id: a.technician.id },
        ...{ scheduled_start: `${day}T14:00:00Z`, scheduled_end: `${day}T15:00:00Z` },
      }),
    );

    // The measurer, at 375 px and without signal, measures four windows; the fourth is too wide.
    const phone = await s.browser.newContext(PHONE_375);
    const field = await technicianOpens(phone, visit.id);
    await field.waitForSelector('#measure-form');
    await phone.setOffline(true);
    for (const [i, w] of WINDOWS.entries()) {
      await measure(field, w);
      await field.click('#measure-form button[type=submit]');
      await field.waitForSelector(i ? `text=${i + 1} windows` : 'text=1 window,');
    }
    expect(await field.locator('.pill.flag').count()).toBe(1);
    await field.click('#measure-send');
    await field.waitForSelector('#measure-state >> text=Waiting to send to the office');
    await checkBothWidths(field, 'measured-offline');
    await phone.setOffline(false);
    await field.evaluate(() => window.dispatchEvent(new Event('online')));
    await field.waitForSelector('#measure-state >> text=Sent: the office has the draft quote', { timeout: 60_000 });

    // The office: ONE draft quote, three priced windows and the fourth flagged; it sends it.
    const quotes = (await s.p.api(a.office.token, 'GET', '/sales/quotes')).body.items;
    expect(quotes).toHaveLength(1);
    const office = await signInToOffice(s, desk, a, `/office/quotes/${quotes[0].id}`, a.office.email);
    await office.waitForSelector('#q-flagged');
    expect(await office.locator('table.lines tbody tr').count()).toBe(3);
    expect(await office.textContent('#q-flagged')).toContain('Lounge');
    await office.click('#send-quote');
    await office.waitForSelector('#portal-link:not([hidden])');
    await checkBothWidths(office, 'quote-sent');
    const portal = new URL(await office.inputValue('#portal-url'));

    // The customer, on a phone, accepts and pays the deposit with 4242 on the stand-in.
    const customer = await phone.newPage();
    await customer.goto(`${s.p.siteOf(a)}${portal.pathname}`);
    await customer.fill('#acc-name', CUSTOMER.name);
    await sign(customer, '#acc-sig');
    await customer.click('#accept-form button[type=submit]');
    await customer.click('#pay-deposit');
    await customer.waitForURL(/\/c\/pay\//);
    await payWithCard(customer, '4242 4242 4242 4242');
    await customer.waitForSelector('#deposit-paid');
    await checkBothWidths(customer, 'deposit-paid');

    // The paid deposit releases two supplier orders, one per supplier, with the exact sizes.
    const orders = await waitUntil('two drafted purchase orders', async () => {
      const r = await s.p.api(a.office.token, 'GET', '/purchase-orders?state=open');
      return r.body.items.length === 2 ? (r.body.items as { supplier: { name: string }; lines: any[] }[]) : undefined;
    });
    const linesOf = (name: string) =>
      orders.find((o) => o.supplier.name === name)!.lines.map((l: { description: string }) => l.description);
    expect(linesOf('Shade Mill').join('\n')).toContain('35 1/2" W × 47 1/8" H');
    expect(linesOf('Shade Mill').join('\n')).toContain('40" W × 50" H');
    expect(linesOf('Cell Works')).toHaveLength(1);
    expect(linesOf('Cell Works')[0]).toContain('30 1/4" W × 40" H');
    // The office schedules the install from the quote, for today with the fitter: the windows go with it.
    await office.goto(`${s.p.siteOf(a)}/office/quotes/${quotes[0].id}`);
    await office.click('#open-install');
    await office.fill('#i-street', ADDRESS.street);
    await office.fill('#i-city', ADDRESS.city);
    await office.fill('#i-zip', ADDRESS.zip);
    await office.fill('#i-date', await office.evaluate(() => new Date().toLocaleDateString('en-CA')));
    await office.fill('#i-time', '23:00');
    await office.selectOption('#i-tech', a.technician.id);
    await office.click('#create-job');
    await office.waitForSelector('#office-msg:has-text("Install job")');
    const saleOrderId = (await s.p.api(a.office.token, 'GET', `/sales/quotes/${quotes[0].id}`)).body.sale_order_id;
    const install = (await s.p.api(a.office.token, 'GET', '/jobs')).body.items.find(
      (j: { kind: string; sale_order_id: number | null }) => j.kind === 'install' && j.sale_order_id === saleOrderId,
    ) as { id: string; windows: unknown[] };
    expect(install.windows).toHaveLength(3);

    // The office confirms both (the chat hears each), receives one window, the rest, then the other order.
    await office.goto(`${s.p.siteOf(a)}/office/purchase-orders`);
    await office.waitForSelector('.po-sale');
    const po = (supplier: string) => office.locator('li.po', { hasText: supplier });
    await po('Shade Mill').locator('[data-confirm]').click();
    await office.waitForSelector('text=confirmed and emailed to orders@shade.example.');
    await po('Cell Works').locator('[data-confirm]').click();
    await office.waitForSelector('text=the supplier has no email address');
    await waitUntil('the chat hears both confirmations', async () => {
      const heard = (await chatHeard()).filter((m) => /Purchase order .* confirmed/.test(m));
      return heard.length === 2 ? heard : undefined;
    });
    await po('Shade Mill').locator('[data-line][aria-label*="Kitchen"]').click();
    await office.waitForSelector('text=Received part of');
    expect(await office.textContent('.po-sale h2')).toContain('2 windows awaited');
    await checkBothWidths(office, 'partly-received');
    await po('Shade Mill').locator('[data-receive]:not([data-line])').click();
    await office.waitForSelector('.po-sale h2 >> text=1 window awaited');
    await office.goto(`${s.p.siteOf(a)}/office/jobs/${encodeURIComponent(install.id)}`);
    await office.waitForSelector('#job-stage');
    expect(await office.locator('h1 .pill.ready').count()).toBe(0);
    await office.goto(`${s.p.siteOf(a)}/office/purchase-orders`);
    await po('Cell Works').locator('[data-receive]:not([data-line])').click();
    await office.waitForSelector('text=received.');
    await office.goto(`${s.p.siteOf(a)}/office/jobs/${encodeURIComponent(install.id)}`);
    await office.waitForSelector('h1 .pill.ready >> text=Ready to fit');
    await checkBothWidths(office, 'ready-to-fit');

    await waitUntil('two brackets reserved', async () => ((await bracket())?.reserved === 2 ? true : undefined));

    // The fitter, at 375 px, records two brackets used and completes the job.
    const fitter = await technicianOpens(phone, install.id);
    await fitter.waitForSelector('#parts-form');
    await fitter.selectOption('#part-pick-0', { label: 'Steel bracket' });
    await fitter.fill('#part-qty-0', '2');
    await fitter.click('#parts-form button[type=submit]');
    await fitter.waitForSelector('#parts-recorded');
    await fitter.fill('#resolution', 'Three shades fitted, two brackets used');
    await fitter.click('#complete-form button[type=submit]');
    await fitter.waitForSelector('text=All changes sent', { timeout: 60_000 });
    await checkBothWidths(fitter, 'fitted');

    // The Stock screen: two fewer on hand, and the bracket on the reorder list.
    await waitUntil('the stock fell by two', async () => ((await bracket())?.on_hand === 8 ? true : undefined));
    await office.goto(`${s.p.siteOf(a)}/office/stock`);
    await office.waitForSelector('#reorder-list');
    expect(await office.textContent('.stock-qty')).toBe('8 on hand · 0 reserved · 8 available');
    expect(await office.textContent('#reorder-list')).toContain('Steel bracket: 8 available, under 9');
    await checkBothWidths(office, 'stock');
    await Promise.all([desk.close(), phone.close()]);
  }, 300_000);
});
