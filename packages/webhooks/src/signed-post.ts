/**
 * One delivery attempt: the body POSTed with the Standard Webhooks headers (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature` = `v1,<base64 HMAC-SHA256 of id.timestamp.body>`), signed
 * by the reference library. The answer's code and duration are what the delivery log shows.
 */
import { performance } from 'node:perf_hooks';

import { Webhook } from 'standardwebhooks';

export interface AttemptResult {
  /** The receiver's HTTP status; null when it did not answer (refused, timed out). */
  code: number | null;
  durationMs: number;
  error: string | null;
}

export interface SignedPost {
  url: string;
  webhookId: string;
  body: string;
  secret: string;
  at: Date;
  timeoutMs: number;
}

export function signedHeaders(p: Pick<SignedPost, 'webhookId' | 'body' | 'secret' | 'at'>): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': p.webhookId,
    'webhook-timestamp': String(Math.floor(p.at.getTime() / 1000)),
    'webhook-signature': new Webhook(p.secret).sign(p.webhookId, p.at, p.body),
  };
}

export async function postSigned(p: SignedPost, fetchImpl: typeof fetch = fetch): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const res = await fetchImpl(p.url, {
      method: 'POST',
      headers: { ...signedHeaders(p), 'user-agent': 'platform-webhooks/1' },
      body: p.body,
      // A redirect is the receiver's answer, not somewhere else to send the event.
      redirect: 'manual',
      signal: AbortSignal.timeout(p.timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    return { code: res.status, durationMs: took(), error: null };
  } catch (e) {
    const name = (e as { name?: string }).name;
    const error = name === 'TimeoutError' ? `no answer within ${p.timeoutMs} ms` : String((e as Error).message ?? e);
    return { code: null, durationMs: took(), error: error.slice(0, 500) };
  }
}
