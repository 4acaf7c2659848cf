/** Tiny helpers for rendering with template strings: every value goes through h(). */
import { escapeHtml } from '@platform/web/escape-html.js';
export const h = escapeHtml;

export const $ = <T extends Element = HTMLElement>(sel: string, root: ParentNode = document): T | null =>
  root.querySelector<T>(sel);

/** Inches in eighths, as dealers write them: 36 3/8″. */
export function inches(v: number | undefined): string {
  if (typeof v !== 'number') return '';
  const whole = Math.floor(v);
  const e = Math.round((v - whole) * 8);
  if (e === 0 || e === 8) return `${whole + (e === 8 ? 1 : 0)}″`;
  const [n, d] = e % 4 === 0 ? [e / 4, 2] : e % 2 === 0 ? [e / 2, 4] : [e, 8];
  return `${whole} ${n}/${d}″`;
}

export function timeWindow(start: string | null, end: string | null): string {
  if (!start) return 'Not scheduled';
  const s = new Date(start);
  const day = s.toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
  const t = (d: Date) => d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  return `${day}, ${t(s)}${end ? `–${t(new Date(end))}` : ''}`;
}

export const uuid = (): string =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) =>
        (Number(c) ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (Number(c) / 4)))).toString(16),
      );
