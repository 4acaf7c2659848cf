/** The small HTML pages of the accounting connection (callback, connect errors). Values are escaped; no secrets. */
import { escapeHtml } from '@platform/web/escape-html.js';
const esc = escapeHtml;

export interface PageItem {
  label: string;
  value: string;
}

export function accountingPage(title: string, message: string, items: PageItem[] = []): string {
  const list = items.length
    ? `<dl>${items.map((i) => `<dt>${esc(i.label)}</dt><dd><code>${esc(i.value)}</code></dd>`).join('')}</dl>`
    : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
    `<title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem}` +
    `code{background:#f3f3f3;padding:.1rem .3rem;word-break:break-all}dd{margin:0 0 1rem}</style></head>` +
    `<body><h1>${esc(title)}</h1><p>${esc(message)}</p>${list}</body></html>`
  );
}
