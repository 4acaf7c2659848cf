/**
 * What the local accounting stand-in (local-accounting.server.ts) records of every request it answers
 * (OAuth secrets redacted), and its control to cut the connection of a reply after the work is done.
 */
import type { FastifyInstance } from 'fastify';

export interface RecordedAccountingRequest {
  at: Date;
  method: string;
  path: string;
  tenantId: string | undefined;
  status: number;
  /** Query string without `?` (e.g. `unitdp=4`). */
  query: string;
  /** Request body; OAuth secrets, codes and tokens are replaced by `[redacted]`. */
  body: unknown;
  idempotencyKey: string | undefined;
  /** The request was handled but its answer was dropped (`dropNextReply`). */
  replyDropped: boolean;
}

const SECRET_FIELDS = new Set(['client_secret', 'code', 'code_verifier', 'refresh_token', 'token']);
const redact = (body: unknown): unknown =>
  body && typeof body === 'object' && !Array.isArray(body)
    ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, SECRET_FIELDS.has(k) ? '[redacted]' : v]))
    : body;

/** Records each answered request into `requests` (oldest first); `dropNextReply` arms one cut reply. */
export function recordRequests(
  app: FastifyInstance,
  nowMs: () => number,
): { requests: RecordedAccountingRequest[]; dropNextReply(method: string, path: string | RegExp): void } {
  const requests: RecordedAccountingRequest[] = [];
  let drops: { method: string; path: string | RegExp }[] = [];
  app.addHook('onSend', async (req, reply, payload) => {
    const tenantId = req.headers['xero-tenant-id'];
    const key = req.headers['idempotency-key'];
    const path = req.url.split('?')[0] ?? req.url;
    const drop = drops.findIndex(
      (d) => d.method === req.method && (typeof d.path === 'string' ? d.path === path : d.path.test(path)),
    );
    requests.push({
      at: new Date(nowMs()),
      method: req.method,
      path,
      query: req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '',
      tenantId: typeof tenantId === 'string' ? tenantId : undefined,
      status: reply.statusCode,
      body: redact(req.body),
      idempotencyKey: typeof key === 'string' ? key : undefined,
      replyDropped: drop >= 0,
    });
    if (drop >= 0) {
      // The work is done, the answer is lost: what a timeout or a cut connection looks like to the client.
      drops = drops.filter((_, i) => i !== drop);
      req.raw.socket.destroy();
    }
    return payload;
  });
  return { requests, dropNextReply: (method, path) => void drops.push({ method, path }) };
}
