/**
 * The quote's PDF read as a customer reads it (poppler's pdftotext): every window with its sizes in
 * eighths, the totals in the tenant's currency, the letterhead; a 60-window quote runs onto more pages,
 * each with the table's header and its page number.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { QuoteView } from '@platform/contracts/quote.js';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import type { DocumentBrand } from './pdf-layout.js';
import { firstPagePng, pdfPages } from './pdf-reader.test-support.js';
import { renderQuotePdf } from './quote.pdf.js';

/** Where pages rendered for a person to look at go (with the browser tests' screenshots). */
const SHOTS = join(process.cwd(), 'test-results', 'documents');
const ROOMS = ['Kitchen', 'Den', 'Bedroom', 'Nursery', 'Office', 'Hallway'];

function quoteOf(n: number): QuoteView {
  const lines = Array.from({ length: n }, (_, i) => ({
    description: `Roller shade – ${ROOMS[i % 6]} ${i + 1}`,
    product_code: 'roller-shade',
    room: `${ROOMS[i % 6]} ${i + 1}`,
    width_in: 30 + i + 0.75,
    drop_in: 47.125,
    mount: i % 2 ? 'outside' : 'inside',
    colour: 'Linen',
    options: i % 3 ? [] : [{ code: 'motor', name: 'Motorisation', price: 120 }],
    quantity: 1,
    unit_price: 200 + i,
    subtotal: 200 + i,
  }));
  const untaxed = lines.reduce((s, l) => s + l.subtotal, 0);
  return {
    id: '7d1c1c1e-5d0a-4a57-9a49-0d3b8e0c1a11',
    sale_order_id: 12,
    name: 'S00012',
    state: 'draft',
    partner: null,
    customer: {
      name: 'Dana Whitfield',
      email: 'dana@example.com',
      phone: '720-555-0142',
      street: '12 Elm Street',
      city: 'Denver',
      zip: '80202',
    },
    lead_id: null,
    lines,
    amount_untaxed: untaxed,
    amount_tax: Math.round(untaxed * 8) / 100,
    amount_total: untaxed + Math.round(untaxed * 8) / 100,
    deposit: Math.round((untaxed + Math.round(untaxed * 8) / 100) * 50) / 100,
    created_at: '2026-11-20T17:00:00.000Z',
  } as QuoteView;
}

async function brand(): Promise<DocumentBrand> {
  const logo = await sharp({ create: { width: 360, height: 120, channels: 3, background: '#0b6e4f' } })
    .png()
    .toBuffer();
  return {
    name: 'Acme Blinds',
    logo,
    primary: '#0b6e4f',
    contact: ['1420 Larimer St, Denver CO', '303-555-0100', 'hello@acme.example'],
    currency: 'EUR',
    timeZone: 'America/Denver',
  };
}

describe('the quote PDF', () => {
  it('names every window with its sizes in eighths, the totals in the tenant currency and the company', async () => {
    const q = quoteOf(3);
    const text = pdfPages(await renderQuotePdf(await brand(), q, '2026-12-20T17:00:00.000Z')).join('\n');
    expect(text).toContain('Acme Blinds');
    expect(text).toContain('303-555-0100');
    expect(text).toContain('Quote S00012');
    expect(text).toContain('Dana Whitfield');
    expect(text).toMatch(/Kitchen 1\s+Roller shade\s+30 3\/4 × 47 1\/8\s+inside\s+Linen\s+Motorisation\s+€200\.00/);
    expect(text).toMatch(/Den 2\s+Roller shade\s+31 3\/4 × 47 1\/8\s+outside/);
    expect(text).toMatch(/Bedroom 3/);
    expect(text).toMatch(/Subtotal\s+€603\.00/);
    expect(text).toMatch(/Tax\s+€48\.24/);
    expect(text).toMatch(/Total\s+€651\.24/);
    expect(text).toMatch(/Deposit to confirm the order\s+€325\.62/);
    expect(text).toContain('Valid until: Dec 20, 2026');
  });

  it('runs a 60-window quote onto more pages, each with the table header and its page number', async () => {
    const pdf = await renderQuotePdf(await brand(), quoteOf(60), '2026-12-20T17:00:00.000Z');
    const pages = pdfPages(pdf);
    expect(pages.length).toBeGreaterThan(1);
    const tablePages = pages.filter((p) => /Nursery|Kitchen|Hallway/.test(p));
    expect(tablePages.length).toBeGreaterThan(1);
    for (const p of tablePages) expect(p).toMatch(/Room\s+Product\s+Width × drop\s+Mount/);
    pages.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${pages.length}`));
    const text = pages.join('\n');
    for (let i = 1; i <= 60; i++) expect(text).toMatch(new RegExp(`\\b${ROOMS[(i - 1) % 6]} ${i}\\b`));
    // Page 1 as a reader sees it, kept beside the browser tests' screenshots to be looked at.
    const png = firstPagePng(pdf);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(join(SHOTS, 'quote-60-windows-page1.png'), png);
  });
});
