/**
 * Test support: reads a PDF as a person's tools do, with poppler (pdftotext, pdfinfo, pdftoppm), so
 * tests assert on the text a reader sees rather than on how pdfkit wrote it. Test code only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function withFile<T>(pdf: Buffer, fn: (path: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-reader-'));
  try {
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, pdf);
    return fn(path, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of each page, in reading order (pdftotext separates pages with a form feed). */
export const pdfPages = (pdf: Buffer): string[] =>
  withFile(pdf, (path) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }))
    .split('\f')
    .slice(0, -1);

/** Page 1 as a PNG (pdftoppm), for a person to look at. */
export const firstPagePng = (pdf: Buffer): Buffer =>
  withFile(pdf, (path, dir) => {
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', path, join(dir, 'page')]);
    return readFileSync(join(dir, 'page.png'));
  });

/** The images placed on each page (pdfimages -list), by page number from 1. */
export const imagesByPage = (pdf: Buffer): number[] =>
  withFile(pdf, (path) =>
    execFileSync('pdfimages', ['-list', path], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((l) => Number(l.trim().split(/\s+/)[0])),
  );
