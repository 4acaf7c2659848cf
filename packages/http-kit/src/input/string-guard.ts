/**
 * PostgreSQL cannot store U+0000 nor a lone UTF-16 surrogate (text and jsonb alike), so a string
 * carrying one used to fail deep inside a transaction as a 500, after the bot-check token was spent.
 * This finds the first such string anywhere in a parsed body, query or path, by its field path, so
 * the request is refused with 422 before any route code runs. The value itself is never reported.
 */
import { AppError, type FieldIssue } from '@platform/kernel';

const NUL = '\u0000';
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type BadStringRule = 'no_nul_character' | 'well_formed_unicode';

export function badStringRule(s: string): BadStringRule | undefined {
  if (s.includes(NUL)) return 'no_nul_character';
  if (LONE_SURROGATE.test(s)) return 'well_formed_unicode';
  return undefined;
}

/** A path segment safe to show: the offending characters of a key are escaped, never echoed raw. */
const segment = (k: string): string =>
  // eslint-disable-next-line no-control-regex -- control characters are what gets escaped
  k.replace(/[\u0000-\u001f\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

interface Step {
  value: unknown;
  key: string;
  parent: Step | undefined;
}

const pathOf = (step: Step | undefined, prefix: string[]): string[] => {
  const keys: string[] = [];
  for (let s = step; s; s = s.parent) keys.push(s.key);
  return [...prefix, ...keys.reverse()];
};

/**
 * Walks iteratively with parent links (no recursion limit, no path copies: a body nested 500 000
 * deep costs linear time); keys are checked like values. The path is built only for a bad string.
 */
export function findBadString(root: unknown, prefix: string[] = []): FieldIssue | undefined {
  const stack: { value: unknown; at: Step | undefined }[] = [{ value: root, at: undefined }];
  while (stack.length) {
    const { value: v, at } = stack.pop()!;
    if (typeof v === 'string') {
      const rule = badStringRule(v);
      if (rule) return issue(pathOf(at, prefix), rule);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], at: { value: v[i], key: String(i), parent: at } });
    } else if (typeof v === 'object' && v !== null && !ArrayBuffer.isView(v)) {
      for (const [k, child] of Object.entries(v)) {
        const rule = badStringRule(k);
        if (rule) return issue([...pathOf(at, prefix), segment(k)], rule, 'key');
        stack.push({ value: child, at: { value: child, key: k, parent: at } });
      }
    }
  }
  return undefined;
}

function issue(path: string[], rule: BadStringRule, what: 'value' | 'key' = 'value'): FieldIssue {
  const message =
    rule === 'no_nul_character'
      ? `The ${what} must not contain the NUL character (U+0000).`
      : `The ${what} must be well-formed Unicode (no lone UTF-16 surrogate).`;
  // A path hundreds of levels deep is named by its ends, so the problem body stays small.
  const shown = path.length > 32 ? [...path.slice(0, 16), '…', ...path.slice(-15)] : path;
  return { field: shown.join('.') || '(body)', rule, message };
}

const refusal = (found: FieldIssue) =>
  new AppError('VALIDATION_FAILED', `The field ${found.field} holds characters that cannot be stored.`, {
    fieldIssues: [found],
  });

/** Throws the 422 for the first bad string of a request's path parameters, query and body. */
export function assertCleanStrings(req: { params?: unknown; query?: unknown; body?: unknown }): void {
  const found = findBadString(req.params, ['path']) ?? findBadString(req.query, ['query']) ?? findBadString(req.body);
  if (found) throw refusal(found);
}

/** The same 422 for JSON a route decodes itself (a webhook body, a `domain` query parameter named `field`). */
export function assertCleanJson(value: unknown, field?: string): void {
  const found = findBadString(value, field ? [field] : []);
  if (found) throw refusal(found);
}
