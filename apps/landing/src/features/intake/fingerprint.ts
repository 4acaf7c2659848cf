/** SHA-256 of a body in canonical form (sorted keys), so key order and the bot-check token do not matter. */
import { createHash } from 'node:crypto';

// Plain loops: the same object as Object.fromEntries(keys.sort().filter().map()) without the
// intermediate arrays (this runs on every submission).
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = canonical(v[i]);
    return out;
  }
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort();
    // No prototype, so a `__proto__` key is stored as an own key, as Object.fromEntries does.
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of keys) {
      const x = o[k];
      if (x !== undefined) out[k] = canonical(x);
    }
    return out;
  }
  return v;
}

export function fingerprint(kind: string, body: Record<string, unknown>): string {
  const { captcha_token: _token, ...rest } = body;
  return createHash('sha256')
    .update(JSON.stringify([kind, canonical(rest)]))
    .digest('hex');
}
