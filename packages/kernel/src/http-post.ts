/**
 * One POST over node:http(s) with a keep-alive agent, its body read as text. Used instead of fetch on
 * hot paths (a public submission's captcha check, every ERP call): fetch costs about 0.5 to 0.7 ms
 * more per call than http.request on this machine (bench:intake, bench:jobs; docs/benchmarks.md).
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

// An idle socket is closed after 4 s, before a Node server's default 5 s keep-alive closes it under us.
// Without `timeout` a Node agent ignores the server's `Keep-Alive: timeout=` hint and reuses a socket the
// server already closed, and the next call fails with ECONNRESET (nodejs/node#47130, #42698 of playwright).
const KEEP_ALIVE = { keepAlive: true, maxSockets: 64, timeout: 4_000 };
const httpAgent = new HttpAgent(KEEP_ALIVE);
const httpsAgent = new HttpsAgent(KEEP_ALIVE);

/** `timeout`: no full answer in time; `network`: no answer (refused, reset); `read`: the body broke off. */
export class HttpPostError extends Error {
  constructor(
    readonly kind: 'timeout' | 'network' | 'read',
    message: string,
  ) {
    super(message);
    this.name = 'HttpPostError';
  }
}

export interface HttpPost {
  contentType: string;
  accept?: string;
  /** For the whole exchange, body included (as fetch's `AbortSignal.timeout`). */
  timeoutMs: number;
}

/** `url` may be a URL parsed once by the caller, to skip parsing it on every call. */
export function postText(url: string | URL, body: string, o: HttpPost): Promise<{ status: number; text: string }> {
  // No retry on a reset, even of a reused socket: the server may have acted on the call before the reset
  // (a lost reply), and only the caller knows whether sending it again is safe.
  const u = typeof url === 'string' ? new URL(url) : url;
  const secure = u.protocol === 'https:';
  return new Promise((resolve, reject) => {
    let timedOut = false;
    // Whatever breaks after the deadline (the request, or the answer half read) is the timeout.
    const fail = (kind: 'network' | 'read', e: Error | string) => {
      clearTimeout(timer);
      if (timedOut) reject(new HttpPostError('timeout', `timed out after ${o.timeoutMs} ms`));
      else reject(e instanceof HttpPostError ? e : new HttpPostError(kind, typeof e === 'string' ? e : e.message));
    };
    const req = (secure ? httpsRequest : httpRequest)(
      u,
      {
        method: 'POST',
        agent: secure ? httpsAgent : httpAgent,
        headers: {
          'content-type': o.contentType,
          accept: o.accept ?? 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', (e) => fail('read', e));
        res.on('aborted', () => fail('read', 'the answer broke off'));
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new HttpPostError('timeout', `timed out after ${o.timeoutMs} ms`));
    }, o.timeoutMs);
    req.on('error', (e) => fail('network', e));
    req.end(body);
  });
}
