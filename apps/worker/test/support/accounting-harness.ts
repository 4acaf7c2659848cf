/**
 * Test harness of the accounting sync: the platform database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL), an embedded ERP in its own database, the ERP host app listening on loopback
 * with the accounting routes, the local Xero-protocol provider sending its webhooks there, and the
 * worker's accounting handlers. The provider's clock drives ours, so advanceTime expires tokens.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

import { buildErpApp } from '@platform/app-erp/erp.app.js';
import { ensureDefaultTenant } from '@platform/app-erp/features/tenancy/default-tenant.repo.js';
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import type { Erp } from '@platform/erp';
import { EmbeddedErp } from '@platform/erp-embedded';
import { createEmbeddedErpAdapter } from '@platform/erp-embedded/embedded-erp.adapter.js';
import {
  accountingConnectionSchema,
  type AccountingServices,
  createAccountingServices,
  IntegrationSettingsService,
  SmsService,
} from '@platform/integrations';
import type { OutboxHandler, OutboxRow } from '@platform/outbox';
import { justCallSmsAdapters, normalizeSmsPhone, xeroAccountingAdapters } from '@platform/providers';
import { type RunningLocalAccounting, startLocalAccounting } from '@platform/providers/local';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { findTenantBySlug } from '@platform/tenancy';
import type { FastifyInstance } from 'fastify';

import { accountingHandlers } from '../../src/features/accounting/accounting.jobs.js';
import { runPendingJobs } from './outbox-jobs.js';

export const ERP_DB = 'acct';
export const ADMIN_PASSWORD = 'admin-pw-123';
export const PUBLIC_URL = 'https://erp.example.com';
export const REDIRECT_URI = `${PUBLIC_URL}/acct/callback`;
export const CLIENT_ID = 'local-client-id';
export const CLIENT_SECRET = 'local-client-secret-0123456789';
export const WEBHOOK_KEY = 'local-webhook-key-abcdefghijklmnopqrstuvwxyz';
export const basic = (login = 'admin', password = ADMIN_PASSWORD) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

export interface AccountingHarness {
  t: TestDb;
  erpDb: TestDb;
  tenantId: string;
  embedded: EmbeddedErp;
  erp: Erp;
  settings: IntegrationSettingsService;
  services: AccountingServices;
  local: RunningLocalAccounting;
  app: FastifyInstance;
  handlers: Record<string, OutboxHandler>;
  /** Configures company `companyId` with the Sales/Deposit codes 200/835 and the bank journal (plus `extra` settings). */
  configure(companyId?: number, redirectUri?: string, extra?: Record<string, unknown>): Promise<void>;
  /** GET /acct/connect as admin, the browser leg at the provider, then /acct/callback. Returns the callback page. */
  connect(companyId?: number): Promise<{ status: number; body: string }>;
  connection(companyId?: number): Promise<Record<string, any>>;
  /** Runs the pending outbox rows of a topic once (newest first when `reverse`); marks them done. */
  runJobs(topic: string, reverse?: boolean): Promise<unknown[]>;
  close(): Promise<void>;
}

export async function startAccountingHarness(
  localOpts: { callsPerMinute?: number; taxRates?: Record<string, number> } = {},
): Promise<AccountingHarness> {
  const t = await createTestDb(process.env, { migrated: true });
  const erpDb = await createTestDb();
  await migratePlatform(t.db);
  const tenantId = await ensureDefaultTenant(t.db, 'default');
  const embedded = new EmbeddedErp(erpDb.db);
  await embedded.createDatabase(ERP_DB, { adminPassword: ADMIN_PASSWORD });
  const { key } = await embedded.createApiKey(ERP_DB, 'admin', 'platform integration');
  const erp = createEmbeddedErpAdapter(embedded, { db: ERP_DB, login: 'admin', secret: key });
  const settings = new IntegrationSettingsService(
    t.db,
    createSecretBox(parseKeyring(`k:${randomBytes(32).toString('base64')}`)),
    (raw) => normalizeSmsPhone(raw, 'US'),
  );
  const local = await startLocalAccounting({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [REDIRECT_URI],
    webhookKey: WEBHOOK_KEY,
    ...localOpts,
  });
  const urls = { loginUrl: local.url, identityUrl: local.url, apiUrl: local.url };
  const services = createAccountingServices(
    t.db,
    settings,
    xeroAccountingAdapters({ ...urls, clock: { now: () => local.now() } }),
    { clock: { now: () => local.now() } },
  );
  const app = buildErpApp({
    erp: embedded,
    logLevel: 'silent',
    integrations: {
      tenantId,
      tenantBySlug: async (slug) => {
        const found = await findTenantBySlug(t.db, slug);
        return found && { id: found.id, slug: found.slug, isDefault: found.is_default };
      },
      settings,
      sms: new SmsService(t.db, settings, justCallSmsAdapters()),
      accounting: {
        services,
        // One tenant here: its ERP is the embedded one's database ERP_DB.
        verifyAdmin: async (tenant, l, p) =>
          tenant === tenantId && (await embedded.authenticate(ERP_DB, l, p)) !== false,
        adminLogins: ['admin'],
        publicUrl: PUBLIC_URL,
      },
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  local.setWebhookUrl(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/acct/webhook`);
  const handlers = accountingHandlers(services, () => erp);

  const h: AccountingHarness = {
    t,
    erpDb,
    tenantId,
    embedded,
    erp,
    settings,
    services,
    local,
    app,
    handlers,
    async configure(companyId = 1, redirectUri = REDIRECT_URI, extra = {}) {
      const [dp] = await erp.search('product.product', [['name', '=', 'Down payment']], { limit: 1 });
      const [bank] = await erp.search('account.journal', [['type', '=', 'bank']], { limit: 1 });
      await settings.setAccountingConnection(
        tenantId,
        accountingConnectionSchema.parse({
          name: `Xero ${companyId}`,
          company_id: companyId,
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uri: redirectUri,
          webhook_key: WEBHOOK_KEY,
          down_payment_product_id: dp,
          payment_journal_id: bank,
          sales_account_code: '200',
          deposit_account_code: '835',
          ...extra,
        }),
      );
    },
    async connect(companyId = 1) {
      const start = await app.inject({
        method: 'GET',
        url: `/acct/connect?company=${companyId}`,
        headers: { authorization: basic() },
      });
      if (start.statusCode !== 302) throw new Error(`connect: ${start.statusCode} ${start.body}`);
      const auth = await fetch(String(start.headers.location), { redirect: 'manual' });
      const back = auth.headers.get('location');
      if (auth.status !== 302 || !back) return { status: auth.status, body: await auth.text() };
      const u = new URL(back);
      const cb = await app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
      return { status: cb.statusCode, body: cb.body };
    },
    async connection(companyId = 1) {
      return (
        await t.db.query<Record<string, any>>(
          'SELECT * FROM accounting_connections WHERE tenant_id = $1 AND company_id = $2',
          [tenantId, companyId],
        )
      ).rows[0]!;
    },
    runJobs: (topic, reverse = false) => runPendingJobs(t.db, handlers, topic, reverse),
    async close() {
      await local.close();
      await app.close();
      await erpDb.drop();
      await t.drop();
    },
  };
  return h;
}

/** A posted customer invoice: 3 × 120 of a product (Sales) and 100 of the down-payment product (Deposit). */
export async function postInvoice(h: AccountingHarness, customer = 'Jane Doe'): Promise<number> {
  const partner = await h.erp.create('res.partner', {
    name: customer,
    email: `${customer.split(' ')[0]!.toLowerCase()}@example.com`,
  });
  const product = await h.erp.create('product.product', { name: 'Roller blinds', type: 'service', list_price: 120 });
  const [dp] = await h.erp.search('product.product', [['name', '=', 'Down payment']], { limit: 1 });
  const id = await h.erp.create('account.move', {
    move_type: 'out_invoice',
    partner_id: partner,
    invoice_line_ids: [
      [0, 0, { product_id: product, name: 'Roller blinds x3', quantity: 3, price_unit: 120 }],
      [0, 0, { product_id: dp, name: 'Down payment', quantity: 1, price_unit: 100 }],
    ],
  });
  await h.erp.call('account.move', 'action_post', [[id]]);
  return id;
}

/** The job row the change-feed fan-out would enqueue for a posted invoice (of the harness's tenant, or another's ERP database). */
export function pushRow(h: Pick<AccountingHarness, 'tenantId'>, invoiceId: number, erpDb = ERP_DB): OutboxRow {
  return {
    id: 0,
    tenant_id: h.tenantId,
    topic: 'accounting.push_invoice',
    aggregate_id: null,
    dedupe_key: null,
    status: 'processing',
    attempts: 1,
    next_attempt_at: new Date(),
    locked_by: null,
    last_error: null,
    created_at: new Date(),
    payload: {
      eventTopic: 'erp.invoice_posted',
      event: {
        erpDb,
        model: 'account.move',
        recordId: invoiceId,
        field: 'state',
        old: 'draft',
        new: 'posted',
        oldLabel: null,
        newLabel: null,
        writeDate: '',
        record: {},
      },
    },
  };
}
