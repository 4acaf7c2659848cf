/**
 * The frame every PDF document shares (docs/documents.md): the tenant's letterhead (logo, name,
 * contact, main colour), a table whose header row is drawn again on every page it runs onto, and
 * "Page i of n" footers. Drawn with pdfkit (a kept library) on US Letter with its built-in Helvetica,
 * which covers Western European text (WinAnsi); other scripts would need an embedded font.
 */
import { inches } from '@platform/contracts/window-pricing.js';
import PDFDocument from 'pdfkit';

export type Pdf = PDFKit.PDFDocument;

export interface DocumentBrand {
  name: string;
  /** The tenant's logo as PNG bytes (Settings → Company), or none. */
  logo: Buffer | null;
  /** A #rrggbb the white header text reads on (the Company screen enforces the contrast). */
  primary: string;
  contact: string[];
  currency: string;
  timeZone: string;
}

export const MARGIN = 50;
const FOOTER = 30;
const INK = '#1f2933';
const MUTED = '#52606d';

/** A new document and the promise of its bytes once `doc.end()` is called. */
export function newPdf(title: string): { doc: Pdf; done: Promise<Buffer> } {
  const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, bufferPages: true, info: { Title: title } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

const width = (doc: Pdf) => doc.page.width - 2 * MARGIN;
const bottom = (doc: Pdf) => doc.page.height - MARGIN - FOOTER;

/** Logo left, the company and its contact right, a rule in the main colour, then the document's title. */
export function letterhead(doc: Pdf, brand: DocumentBrand, title: string, subtitle: string[]): void {
  const top = MARGIN;
  if (brand.logo) {
    try {
      doc.image(brand.logo, MARGIN, top, { fit: [180, 60] });
    } catch {
      // A logo pdfkit cannot read leaves the name alone at the top; the document is still whole.
    }
  }
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(14);
  doc.text(brand.name, MARGIN, top, { width: width(doc), align: 'right' });
  doc.font('Helvetica').fontSize(9).fillColor(MUTED);
  for (const line of brand.contact) doc.text(line, { width: width(doc), align: 'right' });
  const ruleY = Math.max(doc.y, top + 64) + 8;
  doc.rect(MARGIN, ruleY, width(doc), 3).fill(brand.primary);
  doc
    .fillColor(brand.primary)
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(title, MARGIN, ruleY + 14);
  doc.fillColor(MUTED).font('Helvetica').fontSize(10);
  for (const line of subtitle) doc.text(line);
  doc.moveDown(0.8).fillColor(INK);
}

/** A small bold heading, on a new page when too little room is left for it and a line under it. */
export function heading(doc: Pdf, text: string, needs = 60): void {
  if (doc.y + needs > bottom(doc)) doc.addPage();
  doc.moveDown(0.6).fillColor(INK).font('Helvetica-Bold').fontSize(12).text(text, MARGIN);
  doc.moveDown(0.3).font('Helvetica').fontSize(10);
}

/** Plain lines of text under a heading (the customer, the notes). */
export function lines(doc: Pdf, texts: string[]): void {
  doc.fillColor(INK).font('Helvetica').fontSize(10);
  for (const t of texts) doc.text(t, MARGIN, doc.y, { width: width(doc) });
}

export interface Column {
  label: string;
  /** A share of the page's width; the shares of a table add up to 1. */
  share: number;
  align?: 'left' | 'right';
}

/** The columns every window table starts with, then the document's own; shares are scaled to fill the page. */
export function windowColumns(...more: Column[]): Column[] {
  const all: Column[] = [
    { label: '#', share: 0.05 },
    { label: 'Room', share: 0.14 },
    { label: 'Product', share: 0.17 },
    { label: 'Width × drop', share: 0.17 },
    { label: 'Mount', share: 0.08 },
    { label: 'Colour', share: 0.1 },
    ...more,
  ];
  const sum = all.reduce((n, c) => n + c.share, 0);
  return all.map((c) => ({ ...c, share: c.share / sum }));
}

/** A window's first cells, sizes in inches to the eighth as a tape reads (46 3/4 × 60 1/8). */
export function windowCells(
  n: number,
  w: { room: string | null; product: string; width_in: number | null; drop_in: number | null },
  mount: string | null,
  colour: string | null,
): string[] {
  const size = w.width_in !== null && w.drop_in !== null ? `${inches(w.width_in)} × ${inches(w.drop_in)}` : '';
  return [String(n), w.room ?? '', w.product, size, mount ?? '', colour ?? ''];
}

/** Rows under a header in the main colour; a row that would cross the footer starts a page with the header again. */
export function table(doc: Pdf, brand: DocumentBrand, columns: Column[], rows: string[][]): void {
  const pad = 4;
  const widths = columns.map((c) => c.share * width(doc));
  const rowHeight = (cells: string[]) =>
    Math.max(...cells.map((t, i) => doc.heightOfString(t, { width: widths[i]! - 2 * pad }))) + 2 * pad;
  const draw = (cells: string[], y: number, h: number) => {
    let x = MARGIN;
    cells.forEach((t, i) => {
      doc.text(t, x + pad, y + pad, { width: widths[i]! - 2 * pad, align: columns[i]!.align ?? 'left' });
      x += widths[i]!;
    });
    doc.y = y + h;
  };
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(9);
    const labels = columns.map((c) => c.label);
    const h = rowHeight(labels);
    const y = doc.y;
    doc.rect(MARGIN, y, width(doc), h).fill(brand.primary);
    doc.fillColor('#ffffff');
    draw(labels, y, h);
    doc.font('Helvetica').fontSize(9).fillColor(INK);
  };
  header();
  rows.forEach((cells, n) => {
    const h = rowHeight(cells);
    if (doc.y + h > bottom(doc)) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    if (n % 2 === 1) doc.rect(MARGIN, y, width(doc), h).fill('#f3f4f6');
    doc.fillColor(INK);
    draw(cells, y, h);
  });
  doc.x = MARGIN;
}

/** Label and amount pairs right-aligned under a table (subtotal, tax, total, deposit); `bold` marks the total. */
export function totals(doc: Pdf, pairs: { label: string; value: string; bold?: boolean }[]): void {
  if (doc.y + pairs.length * 16 + 10 > bottom(doc)) doc.addPage();
  doc.moveDown(0.6);
  const w = width(doc);
  for (const p of pairs) {
    const y = doc.y;
    doc
      .font(p.bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(p.bold ? 12 : 10)
      .fillColor(INK);
    doc.text(p.label, MARGIN, y, { width: w - 110, align: 'right' });
    doc.text(p.value, MARGIN + w - 100, y, { width: 100, align: 'right' });
    doc.moveDown(0.2);
  }
  doc.font('Helvetica').fontSize(10).x = MARGIN;
}

/** "Company · Page i of n" on every page, written once all pages exist. */
export function footers(doc: Pdf, brand: DocumentBrand): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin must not start a new page.
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8).fillColor(MUTED);
    doc.text(`${brand.name} · Page ${i + 1} of ${range.count}`, MARGIN, doc.page.height - MARGIN, {
      width: width(doc),
      align: 'center',
      lineBreak: false,
    });
    doc.page.margins.bottom = keep;
  }
}

/** An instant as the tenant reads it (its time zone). */
export const when = (iso: string | null, timeZone: string): string =>
  iso
    ? new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
    : '—';
