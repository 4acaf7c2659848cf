/**
 * Odoo 15 domains compiled to parameterised SQL. Prefix `&`, `|` (arity 2) and `!` (arity 1) with an
 * implicit AND between top-level items; `[]` matches everything; archived rows are left out unless
 * the domain names `active` or the context says `active_test: false`.
 */
import { compileLeaf, type LeafCtx } from './domain-leaf.js';
import { valueError } from './errors.js';
import type { Params } from './orm/env.js';
import type { ModelDef } from './registry.js';

export type { LeafCtx } from './domain-leaf.js';

const isOperator = (t: unknown): t is '&' | '|' | '!' => t === '&' || t === '|' || t === '!';

function isLeaf(t: unknown): t is unknown[] {
  return Array.isArray(t) && t.length === 3;
}

/** True when any leaf's left side is exactly `active` (Odoo then skips the implicit active filter). */
const mentionsActive = (domain: unknown[]) => domain.some((t) => isLeaf(t) && t[0] === 'active');

export function compileDomain(ctx: LeafCtx, m: ModelDef, alias: string, domain: unknown): string {
  if (domain === false || domain === null || domain === undefined) domain = [];
  if (!Array.isArray(domain)) throw valueError(`Invalid domain: ${JSON.stringify(domain)}`);
  const items: unknown[] = domain;
  // The implicit active leaf is ANDed to the whole domain, never parsed as one of its operands.
  const active =
    ctx.activeTest && m.fields.has('active') && !mentionsActive(items) ? `${alias}.active = true` : undefined;

  let pos = 0;
  const parse = (): string => {
    if (pos >= items.length) throw valueError(`Invalid domain: ${JSON.stringify(domain)}`);
    const t = items[pos++];
    if (t === '&' || t === '|') {
      const a = parse();
      const b = parse();
      return `(${a} ${t === '&' ? 'AND' : 'OR'} ${b})`;
    }
    if (t === '!') return `(NOT ${parse()})`;
    if (isLeaf(t)) return compileLeaf(ctx, m, alias, t);
    throw valueError(`Invalid leaf ${JSON.stringify(t)}`);
  };
  const parts: string[] = [];
  while (pos < items.length) parts.push(parse());
  if (active) parts.push(active);
  if (parts.length === 0) return 'TRUE';
  return parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`;
}

export { isOperator };
export type { Params };
