/** The page frame every area shares: tenant branding in the header, contact details in the footer. */
import type { Branding } from '../tenancy/branding.service.js';
import { esc, palette } from './html.js';
import { CSS } from './styles.js';

export interface PageOptions {
  branding: Branding;
  title: string;
  body: string;
  script?: string;
  /** The field app links its manifest (installable) and registers its service worker. */
  manifest?: boolean;
  /**
   * The bundle draws the page after the first paint (the field app from IndexedDB): the main area
   * takes the whole screen from the start, so the footer is below the fold before and after and
   * nothing visible shifts when the screen arrives (Lighthouse measured CLS 0.85 on the job list).
   */
  clientRendered?: boolean;
  dataset?: Record<string, string>;
  noindex?: boolean;
  /** Styles only this area uses, after the shared stylesheet. */
  css?: string;
}

export function page(o: PageOptions): string {
  const b = o.branding;
  const { bg, link, onBrand } = palette(b.primary, b.secondary);
  const data = Object.entries(o.dataset ?? {})
    .map(([k, v]) => ` data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${esc(v)}"`)
    .join('');
  const logo = b.logoUrl ? `<img src="${esc(b.logoUrl)}" alt="">` : '';
  const contact = [
    b.phone ? `<a href="tel:${esc(b.phone.replace(/[^+\d]/g, ''))}">${esc(b.phone)}</a>` : '',
    b.email ? `<a href="mailto:${esc(b.email)}">${esc(b.email)}</a>` : '',
    b.address ? esc(b.address) : '',
  ].filter(Boolean);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(o.title)} · ${esc(b.name)}</title>
<meta name="theme-color" content="${esc(b.primary)}">${o.noindex === false ? '' : '<meta name="robots" content="noindex">'}
<link rel="icon" href="${esc(b.faviconUrl ?? '/icons/icon.svg')}">${
    o.manifest
      ? '<link rel="manifest" href="/manifest.webmanifest"><link rel="apple-touch-icon" href="/icons/icon-192.png">'
      : ''
  }
<style>:root{--brand:${b.primary};--on-brand:${onBrand};--bg:${bg};--link:${link}}${CSS}${o.css ?? ''}</style>
${o.script ? `<script type="module" src="${esc(o.script)}"></script>` : ''}
</head><body${data}>
<header class="top">${logo}<span class="brand">${esc(b.name)}</span></header>
<main id="main"${o.clientRendered ? ' class="client-rendered"' : ''}>${o.body}</main>
<footer><div>${esc(b.name)}</div>${contact.length ? `<div>${contact.join(' · ')}</div>` : ''}</footer>
</body></html>`;
}
