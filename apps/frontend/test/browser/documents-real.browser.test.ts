/**
 * PDF documents against the real platform (test/support/real-platform.ts): the customer downloads
 * their quote from the portal and the PDF's text (poppler's pdftotext) names every window and the
 * total; the office downloads the quote and a job's report from their pages. Each page with its
 * Download PDF button is checked at 1280 and 375 px (axe, no sideways scroll, screenshots).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { invoiceOrder } from '@platform/erp-embedded/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { PASSWORD } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const check = bothWidthsChecker('real-documents');
const dir = mkdtempSync(join(tmpdir(), 'documents-browser-'));

const WINDOWS = [
  { room: 'Living room', width_in: 35.5, drop_in: 47.125, colour: 'Linen', product_code: 'roller-shade' },
  { room: 'Kitchen', width_in: 46.75, drop_in: 36, colour: 'Grey', product_code: 'roller-shade' },
  { room: 'Main bedroom', width_in: 30, drop_in: 60.875, colour: 'White', product_code: 'roller-shade' },
].map((w) => ({ ...w, mount: 'inside', options: [] as string[] }));

/** Clicks the button or link and answers the text of the PDF the browser downloaded. */
async function downloadedText(page: Page, selector: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = join(dir, `${randomUUID()}.pdf`);
  await download.saveAs(path);
  expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return {
    name: download.suggestedFilename(),
    text: execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }),
  };
}

async function sentQuote() {
  const token = s.p.a.office.token;
  const made = await s.p.api(
    token,
    'POST',
    '/sales/quotes',
    { customer: { name: 'Paula Portal', email: 'paula@example.com' }, lines: WINDOWS },
    { 'idempotency-key': randomUUID() },
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const sent = await s.p.api(token, 'POST', `/sales/quotes/${made.body.id}/send`, {});
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return {
    id: made.body.id as string,
    name: made.body.name as string,
    total: made.body.amount_total as number,
    url: sent.body.portal_url as string,
    order: made.body.sale_order_id as number,
  };
}

const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

describe('PDF documents in the browser', () => {
  it("gives the customer their quote's PDF from the portal, naming every window and the total", async () => {
    const q = await sentQuote();
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${s.p.siteOf(s.p.a)}${new URL(q.url).pathname}`);
    await page.waitForSelector('#quote-pdf');
    await check(page, 'portal-quote');
    const pdf = await downloadedText(page, '#quote-pdf');
    expect(pdf.name).toBe(`quote-${q.name}.pdf`);
    for (const w of ['Living room', 'Kitchen', 'Main bedroom']) expect(pdf.text).toContain(w);
    expect(pdf.text).toMatch(/35 1\/2 × 47 1\/8/);
    expect(pdf.text).toMatch(/46 3\/4 × 36/);
    expect(pdf.text).toMatch(/30 × 60 7\/8/);
    expect(pdf.text).toMatch(new RegExp(`Total\\s+\\${usd(q.total)}`));
    await ctx.close();
  });

  it("offers an accepted quote's invoice in the portal, its PDF naming every window and the total", async () => {
    const q = await sentQuote();
    const erp = await s.p.erpOf(s.p.a);
    const move = await invoiceOrder(erp, q.order);
    const [inv] = await erp.read('account.move', [move], ['name']);
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${s.p.siteOf(s.p.a)}${new URL(q.url).pathname}`);
    await page.waitForSelector('#invoices:not([hidden]) a');
    await check(page, 'portal-invoices');
    const pdf = await downloadedText(page, '#invoice-list a');
    expect(pdf.name).toBe(`invoice-${String(inv!.name).replace(/[^A-Za-z0-9_-]+/g, '-')}.pdf`);
    expect(pdf.text).toContain(`Invoice ${inv!.name}`);
    for (const w of ['Living room', 'Kitchen', 'Main bedroom']) expect(pdf.text).toContain(w);
    expect(pdf.text).toMatch(new RegExp(`Total\\s+\\${usd(q.total)}`));
    await ctx.close();
  });

  it('gives the office the quote and a job report from their pages', async () => {
    const q = await sentQuote();
    const job = await s.p.api(s.p.a.office.token, 'POST', '/jobs', {
      customer: { name: 'Paula Portal', email: 'paula@example.com' },
      address: { street: '1 Main St', city: 'Denver', zip: '80202' },
      windows: [{ room: 'Study', product: 'Roller shade', width_in: 36.375, drop_in: 48, mount: 'inside' }],
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${s.p.siteOf(s.p.a)}/office/quotes/${q.id}`);
    await page.waitForSelector('#email');
    await page.fill('#email', s.p.a.office.email);
    await page.fill('#password', PASSWORD);
    await page.click('#login button[type=submit]');
    await page.waitForSelector('#quote-pdf');
    await check(page, 'office-quote');
    const quotePdf = await downloadedText(page, '#quote-pdf');
    expect(quotePdf.text).toContain('Main bedroom');
    expect(quotePdf.text).toMatch(new RegExp(`Total\\s+\\${usd(q.total)}`));
    await page.waitForSelector('text=Downloaded');

    await page.goto(`${s.p.siteOf(s.p.a)}/office/jobs/${job.body.id}`);
    await page.waitForSelector('#job-pdf');
    await check(page, 'office-job');
    const report = await downloadedText(page, '#job-pdf');
    expect(report.name).toBe(`job-report-${job.body.name}.pdf`);
    expect(report.text).toMatch(/Study\s+Roller shade\s+36 3\/8 × 48\s+inside/);
    expect(report.text).toContain('Customer signature');
    await ctx.close();
  });
});
