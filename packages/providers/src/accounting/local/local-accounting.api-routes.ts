/**
 * Accounting API routes of the LOCAL stand-in (`/api.xro/2.0/…` and `/connections`), with
 * Xero's gatekeeping: Bearer token (401 when missing/expired), `xero-tenant-id` connected to
 * that token (403), the grant's scopes for the endpoint (403, local-accounting.scopes.ts), 60 calls
 * per minute per tenant (429 + `Retry-After` + `X-Rate-Limit-Problem: minute`). A PUT/POST with an
 * `Idempotency-Key` already seen for the tenant is answered with the first answer, unchanged.
 * `unitdp=4` keeps 4-decimal unit amounts. Filters: `where` with `Field=="value"` clauses joined by AND.
 */
import { randomUUID } from 'node:crypto';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { LocalCredits } from './local-accounting.credits.js';
import { LedgerError, type LocalInvoice, LocalLedger, msDate } from './local-accounting.ledger.js';
import type { LocalOAuthState } from './local-accounting.oauth.js';
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
  oauth: LocalOAuthState;
  tenants: Map<string, LocalTenant>;
  webhooks: LocalWebhookSender;
  nowMs: () => number;
  callsPerMinute: number;
}

type Json = Record<string, unknown>;

/** `Field=="value" AND Field2=="v"` → pairs; undefined when anything else is in the string. */
export function parseWhere(where: string): [string, string][] | undefined {
  const out: [string, string][] = [];
  const rest = where.replace(/(\w+)\s*==\s*"((?:[^"\\]|\\.)*)"/g, (_m, f: string, v: string) => {
    out.push([f, v.replace(/\\(.)/g, '$1')]);
    return '';
  });
  return rest.replace(/\b(AND)\b|&&/g, '').trim() === '' ? out : undefined;
}

const list = (body: unknown, key: string): Json[] => {
  const b = body && typeof body === 'object' ? (body as Json) : {};
  if (Array.isArray(b[key])) return b[key] as Json[];
  return Object.keys(b).length > 0 && !(key in b) ? [b] : [];
};

export function registerLocalAccountingApi(app: FastifyInstance, d: ApiDeps): void {
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
  const unitDp = (req: FastifyRequest): 2 | 4 => (String((req.query as Json)['unitdp'] ?? '') === '4' ? 4 : 2);

  const whereOf = (req: FastifyRequest): [string, string][] => {
    const w = (req.query as Json)['where'];
    const parsed = typeof w === 'string' ? parseWhere(w) : [];
    if (!parsed)
      throw new LedgerError(400, `The local stand-in supports only Field=="value" AND … filters, got: ${String(w)}`);
    return parsed;
  };

  app.get('/connections', async (req, reply) => {
    const auth = req.headers.authorization ?? '';
    const access = auth.startsWith('Bearer ')
      ? d.oauth.checkAccess(auth.slice(7))
      : { error: 'AuthenticationUnsuccessful' };
    if ('error' in access) return problem(reply, 401, 'Unauthorized', access.error);
    const iso = new Date(d.nowMs()).toISOString().replace(/Z$/, '');
    return access.grant.tenantIds.map((id) => ({
      id: randomUUID(),
      authEventId: randomUUID(),
      tenantId: id,
      tenantType: 'ORGANISATION',
      tenantName: d.tenants.get(id)?.tenantName ?? '',
      createdDateUtc: iso,
      updatedDateUtc: iso,
    }));
  });

  const base = '/api.xro/2.0';
  app.get(
    `${base}/Contacts`,
    handle((t, req) => {
      const where = whereOf(req);
      const found = [...t.ledger.contacts.values()].filter((c) =>
        where.every(([f, v]) => (c as unknown as Json)[f] === v),
      );
      return envelope(
        'Contacts',
        found.map((c) => LocalLedger.contactJson(c)),
      );
    }),
  );
  app.get(
    `${base}/Contacts/:id`,
    handle((t, req) => {
      const c = t.ledger.contacts.get((req.params as { id: string }).id);
      if (!c) throw new LedgerError(404, 'The resource you are looking for cannot be found');
      return envelope('Contacts', [LocalLedger.contactJson(c)]);
    }),
  );
  for (const method of ['PUT', 'POST'] as const) {
    app.route({
      method,
      url: `${base}/Contacts`,
      handler: handle((t, req) =>
        envelope(
          'Contacts',
          list(req.body, 'Contacts').map((c) => LocalLedger.contactJson(t.ledger.saveContact(c, method === 'POST'))),
        ),
      ),
    });
    app.route({
      method,
      url: `${base}/Invoices`,
      handler: handle((t, req) => {
        const saved = list(req.body, 'Invoices').map((raw): LocalInvoice => {
          if (method === 'PUT' || typeof raw['InvoiceID'] !== 'string') return t.ledger.createInvoice(raw, unitDp(req));
          const { invoice, statusChanged } = t.ledger.updateInvoice(raw);
          if (statusChanged) d.webhooks.invoiceUpdated(t.tenantId, invoice.InvoiceID);
          return invoice;
        });
        return envelope(
          'Invoices',
          saved.map((i) => t.ledger.invoiceJson(i)),
        );
      }),
    });
  }
  app.get(
    `${base}/Invoices`,
    handle((t, req) => {
      const where = whereOf(req);
      const statuses = String((req.query as Json)['Statuses'] ?? '')
        .split(',')
        .filter(Boolean);
      const found = [...t.ledger.invoices.values()].filter(
        (i) =>
          where.every(([f, v]) => (f === 'Type' ? v === 'ACCREC' : (i as unknown as Json)[f] === v)) &&
          (statuses.length === 0 || statuses.includes(i.Status)),
      );
      return envelope(
        'Invoices',
        found.map((i) => t.ledger.invoiceJson(i)),
      );
    }),
  );
  app.get(
    `${base}/Invoices/:id`,
    handle((t, req) => {
      const inv = t.ledger.findInvoice((req.params as { id: string }).id);
      if (!inv) throw new LedgerError(404, 'The resource you are looking for cannot be found');
      return envelope('Invoices', [t.ledger.invoiceJson(inv)]);
    }),
  );
  app.get(
    `${base}/Payments/:id`,
    handle((t, req) => {
      const p = t.ledger.payments.get((req.params as { id: string }).id);
      if (!p) throw new LedgerError(404, 'The resource you are looking for cannot be found');
      const inv = t.ledger.invoices.get(p.InvoiceID)!;
      return envelope('Payments', [
        {
          PaymentID: p.PaymentID,
          Date: msDate(Date.parse(`${p.Date}T00:00:00Z`)),
          Amount: p.Amount,
          Reference: p.Reference ?? '',
          PaymentType: 'ACCRECPAYMENT',
          Status: p.Status,
          Account: { Code: p.AccountCode },
          Invoice: { InvoiceID: inv.InvoiceID, InvoiceNumber: inv.InvoiceNumber },
        },
      ]);
    }),
  );
  // A credit note / prepayment / overpayment with its allocation (the stand-in allocates each to one invoice).
  for (const kind of ['CreditNotes', 'Prepayments', 'Overpayments'] as const) {
    app.get(
      `${base}/${kind}/:id`,
      handle((t, req) => {
        const id = (req.params as { id: string }).id;
        const inv = [...t.ledger.invoices.values()].find((i) =>
          i.Allocations.some((a) => a.Kind === kind && a.ID === id),
        );
        const a = inv?.Allocations.find((x) => x.ID === id);
        if (!inv || !a) throw new LedgerError(404, 'The resource you are looking for cannot be found');
        const remaining = Math.round((a.Total - a.AppliedAmount) * 100) / 100;
        return envelope(kind, [
          {
            [`${kind.slice(0, -1)}ID`]: a.ID,
            ...(kind === 'CreditNotes' ? { CreditNoteNumber: a.Number } : {}),
            Type:
              kind === 'CreditNotes'
                ? 'ACCRECCREDIT'
                : kind === 'Prepayments'
                  ? 'RECEIVE-PREPAYMENT'
                  : 'RECEIVE-OVERPAYMENT',
            Contact: { ContactID: inv.ContactID },
            Date: msDate(Date.parse(`${a.Date}T00:00:00Z`)),
            Status: remaining === 0 ? 'PAID' : 'AUTHORISED',
            Total: a.Total,
            RemainingCredit: remaining,
            Allocations: [
              {
                Invoice: { InvoiceID: inv.InvoiceID, InvoiceNumber: inv.InvoiceNumber },
                Amount: a.AppliedAmount,
                Date: msDate(Date.parse(`${a.Date}T00:00:00Z`)),
              },
            ],
          },
        ]);
      }),
    );
  }
  app.put(
    `${base}/Payments`,
    handle((t, req) => {
      const done = list(req.body, 'Payments').map((raw) => t.ledger.applyPayment(raw));
      for (const { invoice } of done) d.webhooks.invoiceUpdated(t.tenantId, invoice.InvoiceID);
      return envelope(
        'Payments',
        done.map(({ payment, invoice }) => ({
          PaymentID: payment.PaymentID,
          Date: msDate(Date.parse(`${payment.Date}T00:00:00Z`)),
          Amount: payment.Amount,
          Reference: payment.Reference ?? '',
          PaymentType: 'ACCRECPAYMENT',
          Status: 'AUTHORISED',
          Account: { Code: payment.AccountCode },
          Invoice: { InvoiceID: invoice.InvoiceID, InvoiceNumber: invoice.InvoiceNumber },
        })),
      );
    }),
  );
}
