/** SHA-256 of a request body in canonical form (sorted keys): the same body always has the same print. */
import { createHash } from 'node:crypto';

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = canonical(x);
    }
    return out;
  }
  return v;
}

export function fingerprint(kind: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([kind, canonical(body)]))
    .digest('hex');
}

const KEY_RE = /^[\x21-\x7e]{1,255}$/;
/** The Idempotency-Key header as the landing host accepts it (1 to 255 visible ASCII characters). */
export function idempotencyKeyOf(header: unknown): string | undefined {
  return typeof header === 'string' ? header : undefined;
}
export const isValidIdempotencyKey = (k: string) => KEY_RE.test(k);
