/**
 * Stripe's request encoding (docs.stripe.com/api, "form-encoded"): `metadata[tenant_id]=t1`,
 * `line_items[0][price_data][unit_amount]=2500`, `expand[0]=latest_charge`; numeric keys make arrays.
 * The SDK sends the same shape as a GET query string.
 */
type Node = Record<string, unknown>;

const isIndex = (k: string): boolean => /^\d+$/.test(k);

/** `a[b][0][c]` → `['a','b','0','c']`. */
const pathOf = (key: string): string[] => {
  const first = key.split('[', 1)[0]!;
  const rest = [...key.slice(first.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
  return [first, ...rest];
};

/** Objects whose keys are all indexes become arrays, recursively. */
function arrays(v: unknown): unknown {
  if (!v || typeof v !== 'object') return v;
  const o = v as Node;
  const keys = Object.keys(o);
  for (const k of keys) o[k] = arrays(o[k]);
  return keys.length > 0 && keys.every(isIndex) ? keys.sort((a, b) => Number(a) - Number(b)).map((k) => o[k]) : o;
}

export function parseStripeForm(body: string): Node {
  const root: Node = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = pathOf(key);
    let at = root;
    path.forEach((p, i) => {
      const name = p === '' ? String(Object.keys(at).length) : p;
      if (i === path.length - 1) at[name] = value;
      else at = (at[name] ??= {}) as Node;
    });
  }
  return arrays(root) as Node;
}

/** A canonical string of the parameters, for the idempotency check (same key, other params). */
export const fingerprintOf = (params: Node): string => JSON.stringify(params, Object.keys(flatKeys(params)).sort());

function flatKeys(v: unknown, out: Record<string, true> = {}): Record<string, true> {
  if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out[k] = true;
      flatKeys(x, out);
    }
  return out;
}
