/**
 * Every integration belongs to one company (issue 22). Two tenants, each with its own ERP database
 * and its own account at one accounting stand-in and one SMS stand-in (one host each, as at the
 * providers), configured with the `integrations` CLI `--tenant` and connected through the ERP host's
 * routes: A's posted invoice reaches A's ledger only; a text to B's line becomes B's lead in B's ERP
 * and B's text goes out from B's line; a webhook signed with A's key sent to B's URL changes nothing;
 * each company's ERP payment reaches its own ledger only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { composeErpApp, composeIntegrations } from '@platform/app-erp/deps.js';
import { loadErpConfig } from '@platform/app-erp/erp.config.js';
import type { IntegrationsDeps } from '@platform/app-erp/features/integrations/integrations.types.js';
import { runIntegrationsCli } from '@platform/app-erp/integrations.cli.js';
import {
  TOPIC_ACCOUNTING_PUSH_INVOICE,
  TOPIC_ACCOUNTING_PUSH_MONEY,
  TOPIC_ACCOUNTING_WEBHOOK,
  TOPIC_SMS_INBOUND,
  TOPIC_SMS_SEND,
} from '@platform/contracts';
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import type { Domain, Erp } from '@platform/erp';
import { freePort, startTestErp, type TestErp } from '@platform/erp-embedded/testing';
import { createLogger } from '@platform/http-kit';
import type { OutboxHandler } from '@platform/outbox';
import {
  formatJustCallTimestamp,
  type RunningLocalAccounting,
  type RunningLocalSms,
  signJustCall,
  startLocalAccounting,
  startLocalSms,
} from '@platform/providers/local';
import { ErpDatabases, putErpRouting } from '@platform/tenancy';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pushRow } from '../test/support/accounting-harness.js';
import { runPendingJobs } from '../test/support/outbox-jobs.js';
import { loadWorkerConfig } from './config.js';
import { buildHandlers } from './deps.js';
import { workerTenantErps } from './erp-connections.js';
import { secretBoxFrom } from './secrets.js';

const MASTER = 'master-password-of-the-tenant-integrations-test';
/** Each company: its ERP admin, its SMS account and line, its accounting app. */
const CO = {
  acme: {
    adminPw: 'acme-admin-pw-0123456789',
    sms: { apiKey: 'acme-key', apiSecret: 'acme-sms-secret', webhookSecret: 'acme-whsec-0123456789' },
    line: '13035550100',
    app: { clientId: 'acme-client', clientSecret: 'acme-client-secret-0123456789', webhookKey: 'acme-key-'.repeat(5) },
  },
  birch: {
    adminPw: 'birch-admin-pw-0123456789',
    sms: { apiKey: 'birch-key', apiSecret: 'birch-sms-secret', webhookSecret: 'birch-whsec-0123456789' },
    line: '14155550100',
    app: {
      clientId: 'birch-client',
      clientSecret: 'birch-client-secret-012345678',
      webhookKey: 'birch-key-'.repeat(5),
    },
  },
};
type Slug = keyof typeof CO;

let t: TestDb;
let server: TestErp;
let host: FastifyInstance;
let hostUrl: string;
let sms: RunningLocalSms;
let acct: RunningLocalAccounting;
let deps: IntegrationsDeps;
let handlers: Record<string, OutboxHandler>;
let dataDir: string;
const ids = {} as Record<Slug, string>;
const erps = {} as Record<Slug, Erp>;

const cli = async (argv: string[], input?: unknown): Promise<Record<string, unknown>> => {
  let out = '';
  const code = await runIntegrationsCli(
    argv,
    deps,
    async () => input,
    (s) => void (out += s),
  );
  if (code !== 0) throw new Error(out);
  return JSON.parse(out) as Record<string, unknown>;
};
const runJobs = (topic: string) => runPendingJobs(t.db, handlers, topic);
/** What a webhook could have written: receipts, SMS messages and queued jobs. */
const written = async () =>
  (
    await t.db.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM webhook_receipts) + (SELECT count(*) FROM sms_messages) + (SELECT count(*) FROM outbox) AS n`,
    )
  ).rows[0]!.n;
const basic = (password: string) => `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
const orgOf = (slug: Slug) => acct.tenants[slug === 'acme' ? 0 : 1]!.tenantId;

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  server = await startTestErp({ db: t.db, dbName: 'install', masterPassword: MASTER });
  dataDir = mkdtempSync(join(tmpdir(), 'tenant-integrations-'));
  const port = await freePort();
  hostUrl = `http://127.0.0.1:${port}`;
  sms = await startLocalSms({
    ...CO.acme.sms,
    lines: [{ number: CO.acme.line, name: 'Acme Sales' }],
    accounts: [{ ...CO.birch.sms, lines: [{ number: CO.birch.line, name: 'Birch Sales' }] }],
  });
  const redirect = `${hostUrl}/acct/callback`;
  acct = await startLocalAccounting({
    ...CO.acme.app,
    redirectUris: [redirect],
    tenants: [{ tenantName: 'Acme Blinds Ltd' }],
    apps: [{ ...CO.birch.app, redirectUris: [redirect], tenants: [{ tenantName: 'Birch Shutters Ltd' }] }],
  });
  const env = {
    DATA_DIR: dataDir,
    SECRETS_KEYRING: `k1:${randomBytes(32).toString('base64')}`,
    SMS_API_URL: sms.url,
    ACCT_LOGIN_URL: acct.url,
    ACCT_IDENTITY_URL: acct.url,
    ACCT_API_URL: acct.url,
    ERP_URL: server.url,
    ERP_DB: 'install',
    ERP_API_KEY: server.apiKey,
  };
  const workerConfig = loadWorkerConfig(env);
  const dbs = new ErpDatabases({ url: server.url, masterPassword: MASTER, timeoutMs: 60_000 });
  const defaultTenant = (
    await t.db.query<{ id: string }>(
      `INSERT INTO tenants (slug, name, status, is_default) VALUES ('install', 'Install', 'active', true) RETURNING id`,
    )
  ).rows[0]!.id;
  const tenantErps = workerTenantErps(workerConfig, t.db);
  for (const slug of ['acme', 'birch'] as const) {
    ids[slug] = (
      await t.db.query<{ id: string }>(
        `INSERT INTO tenants (slug, name, status) VALUES ($1, $1, 'active') RETURNING id`,
        [slug],
      )
    ).rows[0]!.id;
    await dbs.create(slug, CO[slug].adminPw);
    const account = await dbs.createServiceAccount(slug, CO[slug].adminPw, 'platform-service');
    await putErpRouting(t.db, secretBoxFrom(workerConfig), {
      tenantId: ids[slug],
      kind: 'embedded',
      url: server.url,
      db: slug,
      login: account.login,
      apiKey: account.apiKey,
    });
    erps[slug] = await tenantErps.forTenant(ids[slug]);
  }
  // The ERP host as composeErpHost builds it (integrations for every tenant, admins checked by their own ERP).
  const embedded = server.embedded;
  deps = composeIntegrations(
    loadErpConfig({ ...env, ACCT_ADMIN_LOGINS: 'admin', ERP_PUBLIC_URL: hostUrl }),
    t.db,
    defaultTenant,
    {
      hostVerify: async (l, p) => (await embedded.authenticate('install', l, p)) !== false,
      embeddedVerify: async (erpDb, l, p) => (await embedded.authenticate(erpDb, l, p)) !== false,
    },
  );
  host = composeErpApp({ erp: embedded, integrations: deps });
  await host.listen({ port, host: '127.0.0.1' });
  handlers = buildHandlers(workerConfig, t.db, createLogger('silent'), tenantErps, () => {}) as Record<
    string,
    OutboxHandler
  >;
}, 240_000);
afterAll(async () => {
  await host?.close();
  await sms?.close();
  await acct?.close();
  await server?.close();
  await t?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('two companies, each with its own integrations', { timeout: 120_000 }, () => {
  it('configures each company with `integrations --tenant`; each is shown its own webhook URLs', async () => {
    for (const slug of ['acme', 'birch'] as const) {
      const shown = await cli(['sms', 'set', '--tenant', slug], {
        api_key: CO[slug].sms.apiKey,
        api_secret: CO[slug].sms.apiSecret,
        webhook_secret: CO[slug].sms.webhookSecret,
        webhook_base_url: hostUrl,
      });
      expect(shown['webhook_url']).toBe(`${hostUrl}/sms/webhook/${slug}/sms`);
      sms.setWebhookUrl(String(shown['webhook_url']), CO[slug].sms.apiKey);
      await cli(['sms', 'line', 'add', '--tenant', slug], {
        name: 'Sales',
        phone_number: `+${CO[slug].line}`,
        line_type: 'sales',
      });
      const [dp] = await erps[slug].search('product.product', [['name', '=', 'Down payment']], { limit: 1 });
      const [bank] = await erps[slug].search('account.journal', [['type', '=', 'bank']], { limit: 1 });
      await cli(['accounting', 'set', '--tenant', slug], {
        name: `${slug} accounting`,
        client_id: CO[slug].app.clientId,
        client_secret: CO[slug].app.clientSecret,
        redirect_uri: `${hostUrl}/acct/callback`,
        webhook_key: CO[slug].app.webhookKey,
        down_payment_product_id: dp,
        payment_journal_id: bank,
        sales_account_code: '200',
        deposit_account_code: '835',
      });
      acct.setWebhookUrl(`${hostUrl}/acct/webhook/${slug}`, CO[slug].app.clientId);
    }
    await expect(cli(['sms', 'show', '--tenant', 'nobody'])).rejects.toThrow(/No active tenant/);
    expect(await (await fetch(`${hostUrl}/sms/webhook/birch/test`)).json()).toMatchObject({ configured: true });
    expect((await fetch(`${hostUrl}/sms/webhook/nobody/test`)).status).toBe(404);
    // An unknown company's page is refused like bad credentials (it does not tell which companies exist).
    const status = await fetch(`${hostUrl}/acct/status?tenant=nobody`, { headers: { authorization: basic('x') } });
    expect(status.status).toBe(401);
    const acmeAdmin = { authorization: basic(CO.acme.adminPw) };
    expect((await fetch(`${hostUrl}/acct/status?tenant=acme`, { headers: acmeAdmin })).status).toBe(200);
  });

  it("connects each company's accounting as that company's ERP admin; another company's admin is refused", async () => {
    const refused = await fetch(`${hostUrl}/acct/connect?tenant=birch`, {
      headers: { authorization: basic(CO.acme.adminPw) },
      redirect: 'manual',
    });
    expect(refused.status).toBe(401);
    for (const slug of ['acme', 'birch'] as const) {
      const start = await fetch(`${hostUrl}/acct/connect?tenant=${slug}`, {
        headers: { authorization: basic(CO[slug].adminPw) },
        redirect: 'manual',
      });
      expect(start.status).toBe(302);
      expect(new URL(start.headers.get('location')!).searchParams.get('client_id')).toBe(CO[slug].app.clientId);
      const page = await fetch(start.headers.get('location')!); // the provider approves, then our callback
      expect(await page.text()).toContain(slug === 'acme' ? 'Acme Blinds Ltd' : 'Birch Shutters Ltd');
    }
    const orgs = await t.db.query<{ tenant_id: string; provider_tenant_id: string; status: string }>(
      'SELECT tenant_id, provider_tenant_id, status FROM accounting_connections',
    );
    expect(orgs.rows).toEqual(
      expect.arrayContaining([
        { tenant_id: ids.acme, provider_tenant_id: orgOf('acme'), status: 'connected' },
        { tenant_id: ids.birch, provider_tenant_id: orgOf('birch'), status: 'connected' },
      ]),
    );
  });

  it("sends A's posted invoice to A's ledger only", async () => {
    const erp = erps.acme;
    const partner = await erp.create('res.partner', { name: 'Jane Doe', email: 'jane@example.com' });
    const product = await erp.create('product.product', { name: 'Roller blinds', type: 'service', list_price: 150 });
    const invoice = await erp.create('account.move', {
      move_type: 'out_invoice',
      partner_id: partner,
      invoice_line_ids: [[0, 0, { product_id: product, name: 'Roller blinds', quantity: 2, price_unit: 150 }]],
    });
    await erp.call('account.move', 'action_post', [[invoice]]);
    // The job the change feed queues for A's posted invoice, run by the worker's handler.
    expect(
      await handlers[TOPIC_ACCOUNTING_PUSH_INVOICE]!(pushRow({ tenantId: ids.acme }, invoice, 'acme')),
    ).toMatchObject({
      pushed: true,
    });
    expect(acct.invoices(orgOf('acme'))).toEqual([expect.objectContaining({ Total: 300 })]);
    expect(acct.invoices(orgOf('birch'))).toEqual([]);
  });

  it("takes A's payment notice at A's URL only: signed with A's key at B's URL, it changes nothing", async () => {
    const [inv] = acct.invoices(orgOf('acme')) as { InvoiceID: string }[];
    acct.recordPayment({ invoiceId: inv!.InvoiceID, amount: 100, tenantId: orgOf('acme') });
    await acct.flushWebhooks();
    const notice = acct.webhooks.at(-1)!;
    expect(notice.attempts.at(-1)?.status).toBe(200);
    const jobs = await t.db.query<{ tenant_id: string }>(`SELECT tenant_id FROM outbox WHERE topic = $1`, [
      TOPIC_ACCOUNTING_WEBHOOK,
    ]);
    expect(jobs.rows).toEqual([{ tenant_id: ids.acme }]);

    const before = await written();
    for (const url of [`${hostUrl}/acct/webhook/birch`, `${hostUrl}/acct/webhook/nobody`, `${hostUrl}/acct/webhook`]) {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-xero-signature': notice.signature },
        body: notice.body,
      });
      expect(r.status).toBe(401);
    }
    expect(await written()).toBe(before);
  });

  it("turns a text to B's line into B's lead in B's ERP, and sends B's text from B's line", async () => {
    await sms.simulateInbound({ from: '+1 720 555 0188', to: `+${CO.birch.line}`, body: 'Do you install shutters?' });
    const stored = await t.db.query<{ tenant_id: string }>(
      `SELECT tenant_id FROM sms_messages WHERE direction = 'inbound'`,
    );
    expect(stored.rows).toEqual([{ tenant_id: ids.birch }]);
    expect(await runJobs(TOPIC_SMS_INBOUND)).toEqual([expect.objectContaining({ model: 'crm.lead' })]);
    const leads: Domain = [['name', 'ilike', 'SMS from']];
    expect(await erps.birch.searchCount('crm.lead', leads)).toBe(1);
    expect(await erps.acme.searchCount('crm.lead', leads)).toBe(0);

    await cli(['sms', 'send', '--tenant', 'birch', '--to', '+1 720 555 0188', '--body', 'Yes, on Tuesdays']);
    await runJobs(TOPIC_SMS_SEND);
    await sms.flushWebhooks();
    expect(sms.messages.filter((m) => m.direction === 'Outgoing')).toEqual([
      expect.objectContaining({ account: CO.birch.sms.apiKey, line: CO.birch.line, body: 'Yes, on Tuesdays' }),
    ]);
  });

  it("refuses a text notice signed with A's key sent to B's URL, writing nothing", async () => {
    const { providerMessageId } = await sms.simulateInbound({
      from: '+1 720 555 0199',
      to: `+${CO.acme.line}`,
      body: 'Hi A',
    });
    const before = await written();
    const url = `${hostUrl}/sms/webhook/birch/sms`;
    const timestamp = formatJustCallTimestamp(new Date());
    const r = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-justcall-signature': signJustCall({
          secret: CO.acme.sms.webhookSecret,
          webhookUrl: url,
          type: 'sms.received',
          timestamp,
        }),
        'x-justcall-signature-version': 'v1',
        'x-justcall-request-timestamp': timestamp,
      },
      body: JSON.stringify({
        request_id: 'forged-1',
        webhook_url: url,
        type: 'sms.received',
        data: { id: Number(providerMessageId) },
      }),
    });
    expect(r.status).toBe(401);
    expect(await written()).toBe(before);
  });

  it("sends each company's ERP payment to its own ledger, though both ERPs number them alike", async () => {
    /** In `slug`'s ERP: a posted invoice of 200, pushed to its ledger, and a payment of `paid` on it. */
    const invoicedAndPaid = async (slug: Slug, paid: number) => {
      const erp = erps[slug];
      const partner = await erp.create('res.partner', { name: `Payer of ${slug}` });
      const invoice = await erp.create('account.move', {
        move_type: 'out_invoice',
        partner_id: partner,
        invoice_line_ids: [[0, 0, { name: 'Shutters', quantity: 1, price_unit: 200 }]],
      });
      await erp.call('account.move', 'action_post', [[invoice]]);
      await handlers[TOPIC_ACCOUNTING_PUSH_INVOICE]!(pushRow({ tenantId: ids[slug] }, invoice, slug));
      const wizard = await erp.create(
        'account.payment.register',
        { amount: paid, communication: `platform-${slug}` },
        { active_model: 'account.move', active_ids: [invoice] },
      );
      await erp.call('account.payment.register', 'action_create_payments', [[wizard]]);
      const [payment] = await erp.search('account.payment', [['ref', '=', `platform-${slug}`]]);
      const row = pushRow({ tenantId: ids[slug] }, payment!, slug);
      const job = {
        ...row,
        topic: TOPIC_ACCOUNTING_PUSH_MONEY,
        payload: { ...(row.payload as { event: object }).event, model: 'account.payment' },
      };
      return { payment: payment!, sent: await handlers[TOPIC_ACCOUNTING_PUSH_MONEY]!(job as typeof row) };
    };
    const a = await invoicedAndPaid('acme', 80);
    const b = await invoicedAndPaid('birch', 30);
    expect(b.payment).toBe(a.payment); // the same ERP id in each company's own database
    expect(a.sent).toMatchObject({ pushed: true });
    expect(b.sent).toMatchObject({ pushed: true });
    const due = (slug: Slug) => acct.invoices(orgOf(slug)).map((i) => [i['Reference'], i['AmountDue']]);
    expect(due('birch')).toEqual([[expect.any(String), 170]]);
    expect(due('acme')).toEqual(expect.arrayContaining([[expect.any(String), 120]]));
    const rows = await t.db.query<{ tenant_id: string; erp_db: string }>(
      'SELECT tenant_id, erp_db FROM accounting_erp_money ORDER BY erp_db',
    );
    expect(rows.rows).toEqual([
      { tenant_id: ids.acme, erp_db: 'acme' },
      { tenant_id: ids.birch, erp_db: 'birch' },
    ]);
    await acct.flushWebhooks(); // the provider's notices of the two payments, delivered before the host stops
  });
});
