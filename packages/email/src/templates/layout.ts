/** The branded frame every HTML email shares, and the matching plain-text footer. */
import type { Brand } from './brand.js';
import { html, type SafeHtml } from './html.js';

export function layout(brand: Brand, title: string, body: SafeHtml): string {
  const logo = brand.logoUrl
    ? html`<img src="${brand.logoUrl}" alt="${brand.companyName}" height="40" style="display:block">`
    : html`<strong style="font-size:20px;color:#ffffff">${brand.companyName}</strong>`;
  const contact = [brand.phone, brand.email, brand.address].filter(Boolean).join(' · ');
  return html`<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head>
<body style="margin:0;background:${brand.secondaryColor};font-family:Arial,Helvetica,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="600" cellpadding="24" cellspacing="0" style="background:#ffffff;max-width:600px">
<tr><td style="background:${brand.primaryColor}">${logo}</td></tr>
<tr><td>${body}</td></tr>
<tr><td style="font-size:12px;color:#666">${brand.companyName}${contact ? html`<br>${contact}` : ''}</td></tr>
</table></td></tr></table></body></html>`.value;
}

export function button(brand: Brand, href: string, label: string): SafeHtml {
  return html`<p><a href="${href}" style="display:inline-block;padding:12px 20px;background:${brand.primaryColor};color:#ffffff;text-decoration:none;border-radius:4px">${label}</a></p>`;
}

export function textFooter(brand: Brand): string {
  const contact = [brand.phone, brand.email, brand.address].filter(Boolean).join(' · ');
  return `\n--\n${brand.companyName}${contact ? `\n${contact}` : ''}\n`;
}
