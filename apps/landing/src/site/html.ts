/** Tiny HTML templating: `html` escapes interpolated values unless they are already `Safe`. */
import { escapeHtml } from '@platform/web/escape-html.js';
export class Safe {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export { escapeHtml };

type Part = string | number | boolean | null | undefined | Safe | Part[];

function render(v: Part): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Safe) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Safe {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Safe(out);
}

export const raw = (s: string): Safe => new Safe(s);
