/**
 * Safe HTML building for email templates. Every interpolated value is escaped unless it is the
 * result of another `html` call; URLs are accepted only as http(s) (an escaped `javascript:` URL is
 * still a script). Hand-written on purpose: twelve lines with typed data beat a template engine
 * whose escaping depends on which brace style a template author picks.
 */
import { escapeHtml } from '@platform/web/escape-html.js';

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export { escapeHtml };

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const part = Array.isArray(v)
      ? v.map((x) => (x instanceof SafeHtml ? x.value : escapeHtml(String(x)))).join('')
      : v instanceof SafeHtml
        ? v.value
        : escapeHtml(String(v ?? ''));
    out += part + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** An http(s) URL, or an error: links in mail must never be script or data URLs. */
export function safeUrl(raw: string): string {
  const u = new URL(raw);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`not an http(s) URL: ${u.protocol}`);
  return u.toString();
}
