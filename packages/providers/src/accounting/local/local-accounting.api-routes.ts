/**
 * Accounting API routes of the LOCAL stand-in (`/api.xro/2.0/…` and `/connections`), each behind
 * Xero's gatekeeping (tokens, tenants, scopes, rate limit, idempotency: local-accounting.gate.ts).
 * `unitdp=4` keeps 4-decimal unit amounts. Filters: `where` with `Field=="value"` clauses joined by AND.
 */
import { randomUUID } from 'node:crypto';

import type { FastifyInstance, FastifyRequest } from 'fastify';

import { registerLocalCreditNoteRoutes } from './local-accounting.credit-note-routes.js';
import { type ApiDeps, apiGate, type LocalTenant } from './local-accounting.gate.js';
import { LocalLedger } from './local-accounting.ledger.js';
import {
  LedgerError,
  type LocalAllocation,
  type LocalInvoice,
  type LocalPayment,
  msDate,
} from './local-accounting.records.js';
import { registerLocalTaxRateRoutes } from './local-accounting.tax-rates.js';

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

/** A credit note removed from its invoice and voided: no allocation, nothing left to credit. */
function voidedCreditNote(a: LocalAllocation, inv: LocalInvoice): Json {
  return {
    CreditNoteID: a.ID,
    CreditNoteNumber: a.Number,
    Type: 'ACCRECCREDIT',
    Contact: { ContactID: inv.ContactID },
    Date: msDate(Date.parse(`${a.Date}T00:00:00Z`)),
    Status: 'VOIDED',
    Total: a.Total,
    RemainingCredit: 0,
    Allocations: [],
  };
}

function paymentJson(t: LocalTenant, p: LocalPayment): Json {
  const inv = t.ledger.invoices.get(p.InvoiceID);
  const cn = p.CreditNoteID ? t.credits.notes.notes.get(p.CreditNoteID) : undefined;
  return {
    PaymentID: p.PaymentID,
    Date: msDate(Date.parse(`${p.Date}T00:00:00Z`)),
    Amount: p.Amount,
    Reference: p.Reference ?? '',
    PaymentType: cn ? 'ARCREDITPAYMENT' : 'ACCRECPAYMENT',
    Status: p.Status,
    Account: { Code: p.AccountCode },
    ...(inv ? { Invoice: { InvoiceID: inv.InvoiceID, InvoiceNumber: inv.InvoiceNumber } } : {}),
    ...(cn ? { CreditNote: { CreditNoteID: cn.CreditNoteID, CreditNoteNumber: cn.CreditNoteNumber } } : {}),
  };
}

export function registerLocalAccountingApi(app: FastifyInstance, d: ApiDeps): void {
  const { envelope, problem, handle } = apiGate(d);
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
  registerLocalCreditNoteRoutes(app, d, base, unitDp);
  registerLocalTaxRateRoutes(app, d, base);
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
      return envelope('Payments', [paymentJson(t, p)]);
    }),
  );
  // A credit note / prepayment / overpayment with its allocation (the stand-in allocates each to one invoice).
  for (const kind of ['CreditNotes', 'Prepayments', 'Overpayments'] as const) {
    app.get(
      `${base}/${kind}/:id`,
      handle((t, req) => {
        const id = (req.params as { id: string }).id;
        const own = kind === 'CreditNotes' && !t.credits.voided.has(id) ? t.credits.notes.notes.get(id) : undefined;
        if (own) return envelope(kind, [t.credits.notes.json(own)]);
        const inv = [...t.ledger.invoices.values()].find((i) =>
          i.Allocations.some((a) => a.Kind === kind && a.ID === id),
        );
        const a = inv?.Allocations.find((x) => x.ID === id);
        const voided = kind === 'CreditNotes' ? t.credits.voided.get(id) : undefined;
        if (voided) return envelope(kind, [voidedCreditNote(voided.note, voided.invoice)]);
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
  // Xero takes a new payment by PUT or POST (xero-node's createPayment POSTs, createPayments PUTs).
  app.route({
    method: ['PUT', 'POST'],
    url: `${base}/Payments`,
    handler: handle((t, req) => {
      const done = list(req.body, 'Payments').map((raw) => {
        // A payment on a credit note is a refund of it (Xero: ARCREDITPAYMENT).
        if (raw['CreditNote'] && typeof raw['CreditNote'] === 'object') {
          const account = (raw['Account'] ?? {}) as Json;
          const { payment, note } = t.credits.notes.refund(raw, t.ledger.checkAccount(account['Code'], 'Account.Code'));
          d.webhooks.event(t.tenantId, 'CREDITNOTE', 'UPDATE', note.CreditNoteID);
          return payment;
        }
        const { payment, invoice } = t.ledger.applyPayment(raw);
        d.webhooks.invoiceUpdated(t.tenantId, invoice.InvoiceID);
        return payment;
      });
      return envelope(
        'Payments',
        done.map((p) => paymentJson(t, p)),
      );
    }),
  });
}
