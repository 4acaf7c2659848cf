/**
 * A price grid's bands as CSV, the way a dealer keeps them in a spreadsheet: the first row the widths
 * (after a corner cell), then one row per drop: the drop, then its prices in dollars with cents.
 */
import type { PriceGrid } from '@platform/contracts/window-pricing.js';

export type Bands = PriceGrid['bands'];
export type CsvOutcome = { ok: true; bands: Bands } | { ok: false; message: string };

const CORNER = 'drop \\ width (in)';

/** The bands as CSV text (CRLF lines, as spreadsheets write them). */
export function gridCsv(bands: Bands): string {
  const rows = [
    [CORNER, ...bands.widths_in.map(String)],
    ...bands.drops_in.map((d, i) => [String(d), ...(bands.prices[i] ?? []).map((p) => p.toFixed(2))]),
  ];
  return rows.map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n';
}

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/** The cells of one CSV line (quoted cells may hold commas and doubled quotes). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      cur += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((x) => x.trim());
}

/** A number a spreadsheet may have written ("$1,089.50" in a quoted cell, " 36 "); NaN otherwise. */
const num = (cell: string) => (/^\$?-?[\d,]*\.?\d+$/.test(cell) ? Number(cell.replace(/[$,]/g, '')) : NaN);

/**
 * Reads CSV text made by `gridCsv` (or a spreadsheet saving the same layout) back into bands. A
 * refusal names the row and column, counting from 1 as a spreadsheet does; the API checks the rest
 * (ascending bands, 1/8 inches, cents) when the grid is saved.
 */
export function parseGridCsv(text: string): CsvOutcome {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '' && l.replace(/,/g, '').trim() !== '');
  if (lines.length < 2) return { ok: false, message: 'The file needs a row of widths and at least one row of drops.' };
  const [head, ...rest] = lines.map(cells);
  const widths = head!.slice(1).map(num);
  const badWidth = widths.findIndex((w) => Number.isNaN(w));
  if (!widths.length) return { ok: false, message: 'Row 1 has no widths after its first cell.' };
  if (badWidth >= 0) return { ok: false, message: `Row 1, column ${badWidth + 2} is not a width in inches.` };
  const drops: number[] = [];
  const prices: number[][] = [];
  for (const [i, row] of rest.entries()) {
    const drop = num(row[0] ?? '');
    if (Number.isNaN(drop)) return { ok: false, message: `Row ${i + 2}, column 1 is not a drop in inches.` };
    const figures = row.slice(1).map(num);
    if (figures.length !== widths.length)
      return {
        ok: false,
        message: `Row ${i + 2} has ${figures.length} price${figures.length === 1 ? '' : 's'}; the widths row has ${widths.length}.`,
      };
    const bad = figures.findIndex((p) => Number.isNaN(p));
    if (bad >= 0) return { ok: false, message: `Row ${i + 2}, column ${bad + 2} is not a price.` };
    drops.push(drop);
    prices.push(figures);
  }
  return { ok: true, bands: { widths_in: widths, drops_in: drops, prices } };
}
