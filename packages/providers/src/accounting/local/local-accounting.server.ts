/**
 * LOCAL accounting stand-in speaking Xero's protocol, for embedded mode and tests only. One
 * origin serves what Xero spreads over three hosts, so pass its `url` as the adapters'
 * `loginUrl`, `identityUrl` and `apiUrl`:
 *
 * - `GET  /identity/connect/authorize` auto-approves and redirects back with `code` + `state`
 *   (an unregistered `redirect_uri`, compared exactly, gets an error page naming both values);
 * - `POST /connect/token`, `POST /connect/revocation` (see local-accounting.oauth.ts);
 * - `GET  /connections`, `/api.xro/2.0/{Contacts,Invoices,Payments}` (local-accounting.api-routes.ts);
 * - payments, credit notes, prepayments, overpayments and payment deletions send signed webhooks
 *   (INVOICE/UPDATE; CREDITNOTE/CREATE too for a credit note) to `webhookUrl`;
 * - scopes are checked per call; `allowedScopes` are those the app may request at all (others get
 *   `error=invalid_scope` back from authorize), `consentScopes` narrows what the user grants.
 *
 * State is in memory. Test controls move time, expire or revoke grants, pay invoices,
 * re-deliver webhooks and run intent-to-receive probes.
 *
 * The options' client, webhook key and `tenants` are the first app; `apps` registers more on the
 * same host (two companies each with its own app and organisation: local-accounting.apps.ts).
 */
import Fastify from 'fastify';

import type { AccountingConnection } from '../accounting.port.js';
import { registerLocalAccountingApi } from './local-accounting.api-routes.js';
import { type LocalAccountingApp, LocalAccountingApps } from './local-accounting.apps.js';
import type { CreditKind } from './local-accounting.credits.js';
import type { LocalTenant } from './local-accounting.gate.js';
import { LocalLedger } from './local-accounting.ledger.js';
import { type RecordedAccountingRequest, recordRequests } from './local-accounting.recorder.js';
import { KNOWN_SCOPES } from './local-accounting.scopes.js';
import { type LocalTaxRateDetail, taxRatesJson } from './local-accounting.tax-rates.js';
import type { IntentToReceiveResult, WebhookDelivery } from './local-accounting.webhooks.js';

export type { LocalAccountingApp } from './local-accounting.apps.js';

export interface LocalAccountingOptions {
  /** More apps on the same host, each with its own client, webhook key and URL, and organisations. */
  apps?: LocalAccountingApp[];
  clientId: string;
  clientSecret: string;
  /** Registered redirect URIs, matched exactly (a trailing slash matters). */
  redirectUris: string[];
  webhookKey: string;
  /** Where payment webhooks go; can be set later with `setWebhookUrl`. */
  webhookUrl?: string;
  /** Base time source; `advanceTime` moves on top of it. */
  now?: () => Date;
  /** Organisations connected on authorize; default one "Local Demo Company". */
  tenants?: { tenantId?: string; tenantName: string }[];
  /** Default `{ NONE: 0, EXEMPTOUTPUT: 0, OUTPUT: 0.1, OUTPUT2: 0.15 }`. */
  taxRates?: Record<string, number>;
  /** Names and statuses listed by `GET /TaxRates` (default: names of the default rates, one archived). */
  taxRateDetails?: Record<string, LocalTaxRateDetail>;
  /** Default TaxType per account code, applied to lines sent without TaxType. Default `{ '200': 'OUTPUT' }` (others NONE). */
  accountTaxTypes?: Record<string, string>;
  /** Scopes the app may request (default: KNOWN_SCOPES); authorize refuses others with `invalid_scope`. */
  allowedScopes?: string[];
  /** When set, only these account codes are accepted on lines and payments. */
  accountCodes?: string[];
  /** Per tenant, default 60 (Xero's). */
  callsPerMinute?: number;
  host?: string;
  port?: number;
}

export type { RecordedAccountingRequest } from './local-accounting.recorder.js';

export interface RunningLocalAccounting {
  /** Base URL for `loginUrl`, `identityUrl` and `apiUrl`. */
  url: string;
  tenants: AccountingConnection[];
  /** Every request received, oldest first. */
  requests: RecordedAccountingRequest[];
  /** Every webhook sent (events and intent-to-receive probes) with its attempts. */
  webhooks: WebhookDelivery[];
  now(): Date;
  advanceTime(ms: number): void;
  /** Of the app with `clientId` (default: the first). */
  setWebhookUrl(url: string | undefined, clientId?: string): void;
  /** By any token of the grant (refresh, rotated refresh or access token). */
  revokeGrant(token: string): void;
  /** Makes the grant's refresh tokens expired (as if unused for 60 days). */
  expireGrant(token: string): void;
  expireAccessTokens(): void;
  /** The next request with this method and path (or a path matching it) is handled, then its connection is cut before the answer. */
  dropNextReply(method: string, path: string | RegExp): void;
  /** Registers one more app while running (a company that signed up); its organisations' ids. */
  addApp(app: LocalAccountingApp): string[];
  /** A contact's name or email changed in the provider's UI; sends CONTACT/UPDATE. */
  editContact(input: { contactId: string; name?: string; email?: string; tenantId?: string }): void;
  /** A contact entered in the provider's UI (e.g. before the sync existed). */
  addContact(input: { name: string; email?: string; contactNumber?: string; tenantId?: string }): string;
  /** The organisation is disconnected from every grant (as from Xero's "Connected apps" page): its calls get 403. */
  disconnectOrganisation(tenantId?: string): void;
  /** Only these of the requested scopes are granted from now on (a user's narrower consent); undefined: all. */
  setConsentScopes(scopes: string[] | undefined): void;
  /** A credit note / prepayment / overpayment allocated to the invoice, as in the provider's UI; sends the webhooks. */
  recordCredit(input: {
    invoiceId: string;
    kind: CreditKind;
    amount: number;
    total?: number;
    tenantId?: string;
    date?: string;
  }): { id: string; number: string; status: string; amountDue: number };
  /** Removes the allocation of a credit note (then voided) / prepayment / overpayment (by its id); sends the webhooks. */
  removeAllocation(input: { id: string; tenantId?: string }): { status: string; amountDue: number };
  /** Deletes a payment as in the provider's UI; sends the webhook. */
  deletePayment(input: { paymentId: string; tenantId?: string }): { status: string; amountDue: number };
  /** Pays an invoice as if done in the provider's UI; sends the webhook. */
  recordPayment(input: { invoiceId: string; amount: number; tenantId?: string; date?: string; accountCode?: string }): {
    paymentId: string;
    status: string;
    amountDue: number;
  };
  /** Wire-shaped snapshots of one tenant's data (default: the first tenant). */
  invoices(tenantId?: string): Record<string, unknown>[];
  contacts(tenantId?: string): Record<string, unknown>[];
  flushWebhooks(): Promise<void>;
  redeliverWebhook(index?: number, times?: number): Promise<(number | null)[]>;
  sendIntentToReceive(input?: { correct?: number; incorrect?: number }): Promise<IntentToReceiveResult>;
  close(): Promise<void>;
}

export async function startLocalAccounting(opts: LocalAccountingOptions): Promise<RunningLocalAccounting> {
  let offsetMs = 0;
  const nowMs = (): number => (opts.now ? opts.now().getTime() : Date.now()) + offsetMs;
  let baseUrl = '';

  const ledgerOpts = {
    taxRates: opts.taxRates ?? { NONE: 0, EXEMPTOUTPUT: 0, OUTPUT: 0.1, OUTPUT2: 0.15 },
    accountTaxTypes: opts.accountTaxTypes ?? { '200': 'OUTPUT' },
    accountCodes: opts.accountCodes,
  };
  let consent: string[] | undefined;
  const apps = new LocalAccountingApps([opts, ...(opts.apps ?? [])], {
    ledger: ledgerOpts,
    allowedScopes: opts.allowedScopes ?? KNOWN_SCOPES,
    consent: () => consent,
    apiBase: () => baseUrl,
    nowMs,
  });
  const tenants = apps.tenants;
  const webhooks = apps.first.webhooks;

  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const { requests, dropNextReply } = recordRequests(app, nowMs);

  app.get('/identity/connect/authorize', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const r = apps.byClient(q['client_id']).oauth.authorize(q);
    return r.ok ? reply.redirect(r.location, 302) : reply.code(r.status).type('text/html; charset=utf-8').send(r.page);
  });
  const basicOf = (h: string | undefined): { id: string; secret: string } | undefined => {
    if (!h?.startsWith('Basic ')) return undefined;
    const [id, ...rest] = Buffer.from(h.slice(6), 'base64').toString('utf8').split(':');
    return { id: id ?? '', secret: rest.join(':') };
  };
  app.post('/connect/token', async (req, reply) => {
    const form = (req.body ?? {}) as Record<string, string | undefined>;
    const basic = basicOf(req.headers.authorization);
    const r = apps.byClient(basic?.id ?? form['client_id']).oauth.token(form, basic);
    return reply
      .code(r.ok ? 200 : r.status)
      .header('cache-control', 'no-store')
      .send(r.body);
  });
  app.post('/connect/revocation', async (req, reply) => {
    const basic = basicOf(req.headers.authorization);
    const client = apps.byClient(basic?.id);
    if (basic?.id !== client.clientId || basic.secret !== client.clientSecret)
      return reply.code(401).send({ error: 'invalid_client' });
    const grant = client.oauth.findGrant(String((req.body as Record<string, unknown> | undefined)?.['token'] ?? ''));
    if (grant) client.oauth.revokeGrant(grant.id); // unknown tokens also get 200 (RFC 7009)
    return reply.code(200).send('');
  });
  registerLocalAccountingApi(app, {
    oauth: apps,
    tenants,
    webhooks: apps,
    nowMs,
    callsPerMinute: opts.callsPerMinute ?? 60,
    taxRates: taxRatesJson(ledgerOpts.taxRates, opts.taxRateDetails),
  });

  await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('local accounting: no TCP address');
  baseUrl = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;

  const tenantOf = (id?: string): LocalTenant => {
    const t = id ? tenants.get(id) : tenants.values().next().value;
    if (!t) throw new Error(`local accounting: unknown tenant ${id ?? ''}`);
    return t;
  };
  /** Runs `f` on the grant a token belongs to, in the app that issued it. */
  const onGrant = (token: string, f: (oauth: LocalAccountingApps['first']['oauth'], id: string) => void) => {
    const found = apps.findGrant(token);
    if (found) f(found.app.oauth, found.grant.id);
  };

  return {
    url: baseUrl,
    get tenants() {
      return [...tenants.values()].map((t) => ({ tenantId: t.tenantId, tenantName: t.tenantName }));
    },
    addApp: (a) => apps.add(a),
    editContact(input) {
      const t = tenantOf(input.tenantId);
      const patch = { ContactID: input.contactId, Name: input.name, EmailAddress: input.email };
      t.ledger.saveContact(patch, true);
      apps.event(t.tenantId, 'CONTACT', 'UPDATE', input.contactId);
    },
    requests,
    webhooks: webhooks.deliveries,
    now: () => new Date(nowMs()),
    advanceTime: (ms) => void (offsetMs += ms),
    setWebhookUrl(url, clientId) {
      const app = clientId === undefined ? apps.first : apps.list.find((a) => a.clientId === clientId);
      if (!app) throw new Error(`local accounting: no app ${clientId}`);
      app.webhookUrl = url;
    },
    revokeGrant: (token) => onGrant(token, (o, id) => o.revokeGrant(id)),
    expireGrant: (token) => onGrant(token, (o, id) => o.expireGrant(id)),
    expireAccessTokens: () => apps.list.forEach((a) => a.oauth.expireAccessTokens()),
    setConsentScopes: (scopes) => void (consent = scopes),
    disconnectOrganisation(tenantId) {
      const id = tenantOf(tenantId).tenantId;
      for (const g of apps.byTenant(id).oauth.grants.values()) g.tenantIds = g.tenantIds.filter((t) => t !== id);
    },
    dropNextReply,
    addContact: (input) =>
      tenantOf(input.tenantId).ledger.saveContact(
        {
          Name: input.name,
          ...(input.email ? { EmailAddress: input.email } : {}),
          ...(input.contactNumber ? { ContactNumber: input.contactNumber } : {}),
        },
        false,
      ).ContactID,
    recordCredit(input) {
      const t = tenantOf(input.tenantId);
      const { id, number, invoice } = t.credits.allocate(input);
      if (input.kind === 'credit_note') apps.event(t.tenantId, 'CREDITNOTE', 'CREATE', id);
      apps.invoiceUpdated(t.tenantId, invoice.InvoiceID);
      return { id, number, status: invoice.Status, amountDue: LocalLedger.due(invoice) };
    },
    removeAllocation(input) {
      const t = tenantOf(input.tenantId);
      const invoice = t.credits.removeAllocation(input.id);
      if (t.credits.voided.has(input.id)) apps.event(t.tenantId, 'CREDITNOTE', 'UPDATE', input.id);
      apps.invoiceUpdated(t.tenantId, invoice.InvoiceID);
      return { status: invoice.Status, amountDue: LocalLedger.due(invoice) };
    },
    deletePayment(input) {
      const t = tenantOf(input.tenantId);
      const invoice = t.credits.deletePayment(input.paymentId);
      apps.invoiceUpdated(t.tenantId, invoice.InvoiceID);
      return { status: invoice.Status, amountDue: LocalLedger.due(invoice) };
    },
    recordPayment(input) {
      const t = tenantOf(input.tenantId);
      const { payment, invoice } = t.ledger.applyPayment({
        Invoice: { InvoiceID: input.invoiceId },
        Account: { Code: input.accountCode ?? ledgerOpts.accountCodes?.[0] ?? '090' },
        Amount: input.amount,
        ...(input.date ? { Date: input.date } : {}),
      });
      apps.invoiceUpdated(t.tenantId, invoice.InvoiceID);
      return { paymentId: payment.PaymentID, status: invoice.Status, amountDue: LocalLedger.due(invoice) };
    },
    invoices: (id) => [...tenantOf(id).ledger.invoices.values()].map((i) => tenantOf(id).ledger.invoiceJson(i)),
    contacts: (id) => [...tenantOf(id).ledger.contacts.values()].map((c) => LocalLedger.contactJson(c)),
    flushWebhooks: () => apps.flush(),
    redeliverWebhook: (index, times) => webhooks.redeliver(index, times),
    sendIntentToReceive: (input = {}) => webhooks.intentToReceive(input.correct ?? 2, input.incorrect ?? 2),
    close: async () => {
      await apps.flush();
      await app.close();
    },
  };
}
