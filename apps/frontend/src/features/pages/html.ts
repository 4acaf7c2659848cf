/** Escaping for server-rendered HTML: every interpolated value goes through esc(). */
import { escapeHtml } from '@platform/web/escape-html.js';
export const esc = escapeHtml;

function luminance(hex: string): number {
  const lin = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

/** WCAG contrast ratio of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

/** Black or white text, whichever reads better on `hex` (always at least 4.5:1). */
export function textOn(hex: string): '#000000' | '#ffffff' {
  return contrast(hex, '#ffffff') >= contrast(hex, '#000000') ? '#ffffff' : '#000000';
}

/** The tenant's colours made safe to read: a light page background, links that pass 4.5:1 on it. */
export function palette(primary: string, secondary: string): { bg: string; link: string; onBrand: string } {
  const bg = contrast(secondary, '#1b1f23') >= 7 ? secondary : '#f6f8fa';
  const link = contrast(primary, bg) >= 4.5 && contrast(primary, '#ffffff') >= 4.5 ? primary : '#0b4f8a';
  return { bg, link, onBrand: textOn(primary) };
}
