/** SHA-256 of a body in canonical form (sorted keys), so key order and the bot-check token do not matter. */
import { createHash } from 'node:crypto';

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

export function fingerprint(kind: string, body: Record<string, unknown>): string {
  const { captcha_token: _token, ...rest } = body;
  return createHash('sha256').update(JSON.stringify([kind, canonical(rest)])).digest('hex');
}
