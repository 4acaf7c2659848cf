/**
 * The contract's /sales for the office views' tests (docs/control-plane.md "Quotes and price grids"):
 * price grids, quotes priced with the control plane's own rules (@platform/contracts/window-pricing.js),
 * 422 `errors` naming `lines.N.field` as the real route's validation does, Idempotency-Key (same key and
 * body → the same quote; another body → IDEMPOTENCY_KEY_REUSED), and portal links.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { inches, type PriceGrid, type PriceIssue, priceLine } from '@platform/contracts/window-pricing.js';

type Answer = { status: number; body: unknown };

/** Two grids with small, readable bands (prices in dollars, `prices[drop][width]`). */
export const STANDIN_GRIDS: PriceGrid[] = [
  {
    product_code: 'roller-shade',
    name: 'Roller Shade',
    bands: {
      widths_in: [24, 36, 48, 60, 72],
      drops_in: [36, 48, 60, 72],
      prices: [
        [89, 107, 125, 143, 161],
        [101, 119, 137, 155, 173],
        [113, 131, 149, 167, 185],
        [125, 143, 161, 179, 197],
      ],
    },
    options: [
      { code: 'motorisation', name: 'Motorisation', price: 249 },
      { code: 'blackout-lining', name: 'Blackout lining', price: 45 },
    ],
    mount_allowance_in: { inside: 0, outside: 3 },
  },
  {
    product_code: 'cellular-shade',
    name: 'Cellular Shade',
    bands: {
      widths_in: [24, 36, 48, 60],
      drops_in: [36, 48, 60, 72],
      prices: [
        [119, 141, 163, 185],
        [134, 156, 178, 200],
        [149, 171, 193, 215],
        [164, 186, 208, 230],
      ],
    },
    options: [{ code: 'cordless-lift', name: 'Cordless lift', price: 35 }],
    mount_allowance_in: { inside: 0, outside: 2 },
  },
];

export interface StandinQuote {
  id: string;
  sale_order_id: number;
  name: string;
  state: string;
  partner: { id: number; name: string };
  /** What the quote was given about its customer (the real route keeps it in sales_quotes.request). */
  customer: Record<string, string | null>;
  lead_id: number | null;
  lines: Record<string, unknown>[];
  amount_untaxed: number;
  amount_tax: number;
  amount_total: number;
  deposit: number;
  created_at: string;
}

const CODE = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The route's schema checks (quoteBody), in its words and rules. */
function schemaIssues(b: Record<string, unknown>): PriceIssue[] {
  const out: PriceIssue[] = [];
  const c = b.customer as Record<string, unknown> | undefined;
  if ((b.partner_id === undefined) === (c === undefined))
    for (const f of ['partner_id', 'customer'])
      out.push({ field: f, rule: 'one_of', message: 'give either partner_id or customer (one of them)' });
  if (c && !text(c.name)) out.push({ field: 'customer.name', rule: 'min_length', message: 'is required' });
  if (c && c.email !== undefined && !EMAIL.test(String(c.email)))
    out.push({ field: 'customer.email', rule: 'format', message: 'must be an email address' });
  const lines = Array.isArray(b.lines) ? (b.lines as Record<string, unknown>[]) : [];
  if (!lines.length) out.push({ field: 'lines', rule: 'min_items', message: 'needs at least one window' });
  lines.forEach((l, i) => {
    if (!CODE.test(String(l.product_code)))
      out.push({ field: `lines.${i}.product_code`, rule: 'format', message: 'must be a product code' });
    for (const k of ['room', 'colour'])
      if (!text(l[k])) out.push({ field: `lines.${i}.${k}`, rule: 'min_length', message: 'is required' });
    for (const k of ['width_in', 'drop_in'])
      if (!(typeof l[k] === 'number' && l[k] > 0))
        out.push({ field: `lines.${i}.${k}`, rule: 'too_small', message: 'must be more than 0' });
    if (l.mount !== 'inside' && l.mount !== 'outside')
      out.push({ field: `lines.${i}.mount`, rule: 'enum', message: 'must be inside or outside' });
  });
  return out;
}

export class SalesStandin {
  readonly grids: PriceGrid[] = structuredClone(STANDIN_GRIDS);
  readonly quotes: StandinQuote[] = [];
  /** Every POST /sales/quotes as it arrived (body and Idempotency-Key). */
  readonly posted: { key?: string; body: Record<string, unknown> }[] = [];
  readonly links: { quote: string; token: string }[] = [];
  private readonly byKey = new Map<string, { body: string; quote: StandinQuote }>();

  partner(id: number): { id: number; name: string } | undefined {
    return this.quotes.find((q) => q.partner.id === id)?.partner;
  }

  hasOrder(id: number): boolean {
    return this.quotes.some((q) => q.sale_order_id === id);
  }

  answer(method: string, path: string, body: Record<string, unknown>, key?: string): Answer {
    if (path === '/sales/price-grids' && method === 'GET') return { status: 200, body: { items: this.grids } };
    if (path === '/sales/quotes' && method === 'POST') return this.create(body, key);
    if (path === '/sales/quotes' && method === 'GET') {
      const items = [...this.quotes].reverse().map(({ lines, ...q }) => ({ ...q, windows: lines.length }));
      return { status: 200, body: { items, page: 1, page_size: 50, total: items.length } };
    }
    const m = /^\/sales\/quotes\/([^/]+)(\/send)?$/.exec(path);
    const q = m ? this.quotes.find((x) => x.id === m[1]) : undefined;
    if (!q) return { status: 404, body: { code: 'NOT_FOUND', detail: 'No such quote.' } };
    if (!m![2]) return { status: 200, body: q };
    if (q.state !== 'draft' && q.state !== 'sent') return { status: 409, body: { code: 'QUOTE_STATE_CONFLICT' } };
    const token = randomBytes(32).toString('base64url');
    this.links.push({ quote: q.id, token });
    q.state = 'sent';
    const expires = new Date(Date.now() + 30 * 86_400_000).toISOString();
    return {
      status: 200,
      body: {
        portal_url: `https://acme.tenants.localhost/portal/quote/${token}`,
        token,
        expires_at: expires,
        emailed_to: q.customer.email ?? null,
        texted_to: null,
        repeated: false,
      },
    };
  }

  private create(body: Record<string, unknown>, key?: string): Answer {
    this.posted.push({ key, body });
    const earlier = key ? this.byKey.get(key) : undefined;
    if (earlier)
      return earlier.body === JSON.stringify(body)
        ? { status: 201, body: earlier.quote }
        : { status: 422, body: { code: 'IDEMPOTENCY_KEY_REUSED' } };
    const invalid = schemaIssues(body);
    if (invalid.length) return refused(invalid);
    const issues: PriceIssue[] = [];
    const lines = (body.lines as Record<string, unknown>[]).map((l, i) => {
      const grid = this.grids.find((g) => g.product_code === l.product_code);
      if (!grid) {
        issues.push({ field: `lines.${i}.product_code`, rule: 'unknown_product', message: 'no price grid' });
        return undefined;
      }
      const window = { ...l, options: (l.options as string[] | undefined) ?? [] } as Parameters<typeof priceLine>[1];
      const r = priceLine(grid, window, `lines.${i}`);
      if (!r.ok) issues.push(...r.issues);
      return r.ok ? r.line : undefined;
    });
    if (issues.length) return refused(issues);
    const n = this.quotes.length + 1;
    const c = body.customer as Record<string, string> & { name: string };
    const untaxed = lines.reduce((s, l) => s + Math.round(l!.unit_price * 100), 0) / 100;
    const quote: StandinQuote = {
      id: randomUUID(),
      sale_order_id: 500 + n,
      name: `S0004${n}`,
      state: 'draft',
      partner: { id: 70 + n, name: c.name },
      customer: Object.fromEntries(
        ['name', 'email', 'phone', 'street', 'city', 'zip'].map((k) => [k, c[k] ?? null]),
      ) as Record<string, string | null>,
      lead_id: typeof body.lead_id === 'number' ? body.lead_id : null,
      lines: lines.map((l) => ({
        description: `${l!.product_name} – ${l!.room}\n${inches(l!.width_in)}" W × ${inches(l!.drop_in)}" H, ${l!.mount} mount, ${l!.colour}`,
        product_code: l!.product_code,
        room: l!.room,
        width_in: l!.width_in,
        drop_in: l!.drop_in,
        mount: l!.mount,
        colour: l!.colour,
        options: l!.option_lines,
        quantity: 1,
        unit_price: l!.unit_price,
        subtotal: l!.unit_price,
      })),
      amount_untaxed: untaxed,
      amount_tax: 0,
      amount_total: untaxed,
      deposit: Math.round(untaxed * 50) / 100,
      created_at: new Date().toISOString(),
    };
    this.quotes.push(quote);
    if (key) this.byKey.set(key, { body: JSON.stringify(body), quote });
    return { status: 201, body: quote };
  }
}

function refused(errors: PriceIssue[]): Answer {
  return {
    status: 422,
    body: {
      code: 'VALIDATION_FAILED',
      detail: `The request has ${errors.length} invalid field(s): ${errors.map((e) => e.field).join(', ')}.`,
      errors,
    },
  };
}
