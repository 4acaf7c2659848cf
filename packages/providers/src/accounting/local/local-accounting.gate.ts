/**
 * Xero's gatekeeping in front of the LOCAL stand-in's API routes (local-accounting.api-routes.ts):
 * Bearer token (401 when missing/expired), `xero-tenant-id` connected to that token (403), the
 * grant's scopes for the endpoint (403, local-accounting.scopes.ts), 60 calls per minute per tenant
 * (429 + `Retry-After` + `X-Rate-Limit-Problem: minute`). A PUT/POST with an `Idempotency-Key`
 * already seen for the tenant is answered with the first answer, unchanged.
 */
import { randomUUID } from 'node:crypto';

import type { FastifyReply, FastifyRequest } from 'fastify';

import type { LocalCredits } from './local-accounting.credits.js';
import type { LocalLedger } from './local-accounting.ledger.js';
import type { LocalOAuthState } from './local-accounting.oauth.js';
import { type Json, LedgerError, msDate } from './local-accounting.records.js';
import { hasScope } from './local-accounting.scopes.js';
import type { LocalWebhookSender } from './local-accounting.webhooks.js';

export interface LocalTenant {
  tenantId: string;
  tenantName: string;
  ledger: LocalLedger;
  credits: LocalCredits;
  /** Times (ms) of the calls inside the rolling minute. */
  calls: number[];
  /** First answers by Idempotency-Key. */
  idempotent: Map<string, { status: number; body: unknown }>;
}

export interface ApiDeps {
  /** Every app's tokens (local-accounting.apps.ts). */
  oauth: Pick<LocalOAuthState, 'checkAccess'>;
  tenants: Map<string, LocalTenant>;
  /** Sends an organisation's events to its app's webhook URL. */
  webhooks: Pick<LocalWebhookSender, 'invoiceUpdated' | 'event'>;
  nowMs: () => number;
  callsPerMinute: number;
  /** The organisations' TaxRates, wire-shaped (local-accounting.tax-rates.ts). */
  taxRates: Record<string, unknown>[];
}

/** Xero's envelope and problem bodies, and `handle`: a route body run behind the gate on the caller's tenant. */
export function apiGate(d: ApiDeps) {
  const envelope = (key: string, items: unknown[]): Json => ({
    Id: randomUUID(),
    Status: 'OK',
    ProviderName: 'Local accounting stand-in',
    DateTimeUTC: msDate(d.nowMs()),
    [key]: items,
  });
  const problem = (reply: FastifyReply, status: number, title: string, detail: string) =>
    reply
      .code(status)
      .send({ Type: null, Title: title, Status: status, Detail: detail, Instance: randomUUID(), Extensions: {} });

  /** Bearer + tenant + rate limit; sends the error and returns undefined when refused. */
  function guard(req: FastifyRequest, reply: FastifyReply): LocalTenant | undefined {
    const auth = req.headers.authorization ?? '';
    const access = auth.startsWith('Bearer ')
      ? d.oauth.checkAccess(auth.slice(7))
      : { error: 'AuthenticationUnsuccessful' };
    if ('error' in access) return void problem(reply, 401, 'Unauthorized', access.error);
    const tenantId = req.headers['xero-tenant-id'];
    const tenant = typeof tenantId === 'string' ? d.tenants.get(tenantId) : undefined;
    if (!tenant || !access.grant.tenantIds.includes(tenant.tenantId))
      return void problem(reply, 403, 'Forbidden', 'AuthenticationUnsuccessful');
    const resource = /\/api\.xro\/2\.0\/(\w+)/.exec(req.url)?.[1] ?? '';
    if (!hasScope(access.grant.scope, resource, req.method))
      return void problem(reply, 403, 'Forbidden', 'AuthorizationUnsuccessful');
    const now = d.nowMs();
    tenant.calls = tenant.calls.filter((t) => now - t < 60_000);
    if (tenant.calls.length >= d.callsPerMinute) {
      const retryAfter = Math.max(1, Math.ceil((60_000 - (now - (tenant.calls[0] as number))) / 1000));
      void reply.code(429).header('retry-after', String(retryAfter)).header('x-rate-limit-problem', 'minute').send('');
      return undefined;
    }
    tenant.calls.push(now);
    void reply.header('x-minlimit-remaining', String(d.callsPerMinute - tenant.calls.length));
    return tenant;
  }

  /** Runs `fn` on the tenant's ledger, mapping LedgerError to Xero's 400/404 bodies. */
  const handle =
    (fn: (t: LocalTenant, req: FastifyRequest) => unknown) => async (req: FastifyRequest, reply: FastifyReply) => {
      const tenant = guard(req, reply);
      if (!tenant) return reply;
      const key = req.method !== 'GET' ? req.headers['idempotency-key'] : undefined;
      const seen = typeof key === 'string' ? tenant.idempotent.get(key) : undefined;
      if (seen) return reply.code(seen.status).send(seen.body);
      const remember = (status: number, body: unknown) => {
        if (typeof key === 'string') tenant.idempotent.set(key, { status, body });
        return reply.code(status).send(body);
      };
      try {
        return await remember(200, fn(tenant, req));
      } catch (e) {
        if (!(e instanceof LedgerError)) throw e;
        if (e.status === 404) return problem(reply, 404, 'NotFound', e.message);
        return remember(400, {
          ErrorNumber: 10,
          Type: 'ValidationException',
          Message: 'A validation exception occurred',
          Elements: [{ ...(req.body as Json), ValidationErrors: [{ Message: e.message }] }],
        });
      }
    };
  return { envelope, problem, handle };
}
