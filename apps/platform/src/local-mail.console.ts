/**
 * The local mail stand-in's pages on the stand-ins' console (embedded mode only): `/mail` lists every
 * message newest first (to, subject, when, its links, clickable), `/mail/<id>` shows one with its
 * rendered HTML (in a sandboxed frame) and its text, `/mail/<id>/html` is that HTML alone, served
 * under a sandbox CSP so a message's scripts never run with the console's origin.
 */
import type { LocalMailMessage } from '@platform/providers/local';
import { escapeHtml } from '@platform/web/escape-html.js';

const esc = escapeHtml;

/** http(s) links of a message, from its HTML hrefs and its text, in order, once each. */
export function mailLinks(m: Pick<LocalMailMessage, 'html' | 'text'>): string[] {
  const found = [
    ...[...m.html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)].map((x) => x[1]!.replace(/&amp;/g, '&')),
    ...[...m.text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)].map((x) => x[0]),
  ];
  return [...new Set(found.filter((u) => /^https?:\/\//i.test(u)))];
}

const page = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:1.5rem auto;padding:0 1rem;color:#1a1a1a}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd;vertical-align:top}
a{color:#0b57d0;overflow-wrap:anywhere}ul{padding-left:1.2rem}
@media (max-width:40rem){table.list thead{display:none}table.list tr,table.list td{display:block}
table.list td{border:0;padding:.15rem 0}table.list tr{border-bottom:1px solid #ddd;padding:.6rem 0}}pre{white-space:pre-wrap;background:#f6f6f6;padding:.75rem}
iframe{width:100%;height:32rem;border:1px solid #ccc}</style></head>
<body><main>${body}</main></body></html>
`;

const linkList = (links: string[]): string =>
  links.length ? `<ul>${links.map((u) => `<li><a href="${esc(u)}">${esc(u)}</a></li>`).join('')}</ul>` : '';

export function renderMailList(messages: readonly LocalMailMessage[]): string {
  const rows = [...messages]
    .reverse()
    .map(
      (m) => `<tr><td>${esc(m.receivedAt.replace('T', ' ').slice(0, 19))}</td><td>${esc(m.to)}</td>
<td><a href="/mail/${encodeURIComponent(m.id)}">${esc(m.subject || '(no subject)')}</a>${linkList(mailLinks(m))}</td></tr>`,
    )
    .join('\n');
  return page(
    'Local mail',
    `<h1>Local mail</h1>
<p>Every email the platform sent on embedded defaults (nothing left this machine). Newest first; reload to see new mail.</p>
${messages.length ? `<table class="list"><thead><tr><th>Received (UTC)</th><th>To</th><th>Subject and links</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No mail yet. Send a quote or invite a person and it appears here.</p>'}`,
  );
}

export function renderMailMessage(m: LocalMailMessage): string {
  const id = encodeURIComponent(m.id);
  return page(
    m.subject || 'Mail',
    `<p><a href="/mail">All mail</a></p><h1>${esc(m.subject || '(no subject)')}</h1>
<table><tr><th>From</th><td>${esc(m.from)}</td></tr><tr><th>To</th><td>${esc(m.to)}</td></tr>
<tr><th>Received</th><td>${esc(m.receivedAt)}</td></tr></table>
<h2>Links</h2>${linkList(mailLinks(m)) || '<p>None.</p>'}
${m.html ? `<h2>HTML</h2><iframe title="The message as HTML" sandbox="allow-popups allow-popups-to-escape-sandbox" src="/mail/${id}/html"></iframe>` : ''}
<h2>Text</h2><pre>${esc(m.text).replace(/https?:\/\/[^\s<>"')\]]+/g, (u) => `<a href="${u}">${u}</a>`)}</pre>`,
  );
}

/** The message's own HTML, links opening outside the frame. */
export function mailHtmlBody(m: LocalMailMessage): string {
  const base = '<base target="_blank">';
  return /<head[^>]*>/i.test(m.html) ? m.html.replace(/<head[^>]*>/i, (h) => `${h}${base}`) : `${base}${m.html}`;
}

/** The sandbox the message HTML is served under: no scripts, no same-origin, images and inline styles only. */
export const MAIL_HTML_CSP =
  "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline'";
