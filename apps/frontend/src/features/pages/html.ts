/** Escaping for server-rendered HTML: every interpolated value goes through esc(). */
import { contrast, MIN_CONTRAST, servesAsBackground } from '@platform/contracts/branding.js';
import { escapeHtml } from '@platform/web/escape-html.js';

export const esc = escapeHtml;

/** Black or white text, whichever reads better on `hex` (always at least 4.5:1). */
export function textOn(hex: string): '#000000' | '#ffffff' {
  return contrast(hex, '#ffffff') >= contrast(hex, '#000000') ? '#ffffff' : '#000000';
}

/** The tenant's colours made safe to read: a light page background, links that pass 4.5:1 on it. */
export function palette(primary: string, secondary: string): { bg: string; link: string; onBrand: string } {
  const bg = servesAsBackground(secondary) ? secondary : '#f6f8fa';
  const link =
    contrast(primary, bg) >= MIN_CONTRAST && contrast(primary, '#ffffff') >= MIN_CONTRAST ? primary : '#0b4f8a';
  return { bg, link, onBrand: textOn(primary) };
}
