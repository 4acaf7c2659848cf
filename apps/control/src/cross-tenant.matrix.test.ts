/**
 * The cross-tenant matrix: every route the control plane serves (read from its own OpenAPI
 * description, so a new route joins the matrix or fails this test) is called by tenant B's owner with
 * tenant A's ids, and answers 404 without changing A's records; B's lists never show A's records.
 * Tenants A and B each have their own database of a real embedded ERP.
 */
import { randomBytes } from 'node:crypto';

import { oneWindowQuote } from '@platform/contracts/examples.js';
import { insertDelivery } from '@platform/webhooks';
import { defaultWebsiteContent } from '@platform/website';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from './testing/crm-sales-kit.js';

let k: CrmSalesKit;
/** A's ids by path parameter, for the routes that take them. */
let ids: Record<string, string>;
let aQuoteId: string;
let aJobId: string;
let aLeadId: number;
let aPortalToken: string;
let aTechnicianId: string;

const jobBody = {
  customer: { name: 'Ann Alpha', email: 'ann@alpha.test' },
  address: { street: '1 Main St', city: 'Denver', zip: '80202' },
  windows: [{ room: 'Kitchen', product: 'Roller shade', width_in: 36, drop_in: 48, mount: 'inside' }],
};

beforeAll(async () => {
  k = await startCrmSalesKit({ SECRETS_KEYRING: `k1:${randomBytes(32).toString('base64')}` });
  // A's lead ids lie beyond B's: B's ERP database has fewer leads, so an id of A's is not one of B's.
  for (const n of [1, 2, 3]) await k.a.erp.erp.create('crm.lead', { name: `A lead ${n}`, contact_name: 'Ann' });
  aLeadId = await k.a.erp.erp.create('crm.lead', { name: 'A lead 4', contact_name: 'Ann Alpha' });
  await k.b.erp.erp.create('crm.lead', { name: 'B lead', contact_name: 'Bee' });
  const job = await k.call('POST', '/jobs', k.a.office, jobBody);
  expect(job.status, JSON.stringify(job.body)).toBe(201);
  aJobId = job.body.id;
  const quote = await k.call(
    'POST',
    '/sales/quotes',
    k.a.office,
    oneWindowQuote({ customer: { name: 'Ann Alpha', email: 'ann@alpha.test' } }),
  );
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  aQuoteId = quote.body.id;
  const sent = await k.call('POST', `/sales/quotes/${aQuoteId}/send`, k.a.office);
  aPortalToken = sent.body.token;
  const domain = await k.call('POST', `/api/tenants/${k.a.id}/domains`, k.a.owner, { domain: 'blinds-alpha.test' });
  expect(domain.status, JSON.stringify(domain.body)).toBe(201);
  const hook = await k.call('POST', `/api/tenants/${k.a.id}/webhooks`, k.a.owner, {
    url: 'https://hooks.alpha.test/in',
    events: ['quote.sent'],
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  const deliveryId = await k.kit.t.db.transaction((tx) =>
    insertDelivery(tx, {
      tenantId: k.a.id,
      endpointId: hook.body.id,
      eventKey: 'quote.sent:matrix',
      eventType: 'quote.sent',
      webhookId: 'msg_matrix',
      occurredAt: new Date().toISOString(),
      data: {},
    }),
  );
  const smsOfA = await k.call('PUT', `/api/tenants/${k.a.id}/integrations/sms`, k.a.owner, BODIES[SMS_PUT]);
  expect(smsOfA.status, JSON.stringify(smsOfA.body)).toBe(200);
  await k.call('POST', `/api/tenants/${k.a.id}/integrations/sms/lines`, k.a.owner, BODIES[SMS_LINE]);
  const text = await k.call('POST', `/api/tenants/${k.a.id}/integrations/sms/test`, k.a.owner, BODIES[SMS_TEST]);
  expect(text.status, JSON.stringify(text.body)).toBe(202);
  const key = await k.call('POST', `/api/tenants/${k.a.id}/api-keys`, k.a.owner, { description: 'A key' });
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  await k.call('POST', `/api/tenants/${k.a.id}/invitations`, k.a.owner, { email: 'asked@alpha.test', role: 'office' });
  const invitations = await k.call('GET', `/api/tenants/${k.a.id}/invitations`, k.a.owner);
  expect(invitations.body.items, JSON.stringify(invitations.body)).toHaveLength(1);
  const branch = await k.call('POST', `/api/tenants/${k.a.id}/branches`, k.a.owner, {
    name: 'Alpha North',
    zip_codes: ['80211'],
  });
  expect(branch.status, JSON.stringify(branch.body)).toBe(201);
  expect((await k.call('POST', `/api/tenants/${k.a.id}/website/publish`, k.a.owner)).status).toBe(200);
  const users = await k.call('GET', `/api/tenants/${k.a.id}/users`, k.a.owner);
  const office = users.body.items.find((u: { role: string }) => u.role === 'office');
  const checklist = await k.call('GET', `/jobs/${aJobId}`, k.a.office);
  // An invoice and a supplier order in A's ERP only: B's ERP database holds none, so no id of A's is B's.
  const customerId = checklist.body.customer.id as number;
  const aInvoiceId = await k.a.erp.erp.create('account.move', {
    move_type: 'out_invoice',
    partner_id: customerId,
    invoice_line_ids: [[0, 0, { name: 'Roller shade', quantity: 1, price_unit: 100 }]],
  });
  const aPurchaseId = await k.a.erp.erp.create('purchase.order', { partner_id: customerId });
  // A itself reaches them: B's 404s below are about the tenant, not about ids nobody can use.
  for (const url of [`/invoices/${aInvoiceId}/pdf`, `/purchase-orders/${aPurchaseId}/pdf`]) {
    const pdf = await k.kit.app.inject({ url, headers: { authorization: `Bearer ${k.a.office}` } });
    expect(pdf.statusCode, url).toBe(200);
  }
  // Posted and sent: A's pay link, for the portal's invoice routes.
  await k.a.erp.erp.call('account.move', 'action_post', [[aInvoiceId]]);
  const sentInvoice = await k.call('POST', `/invoices/${aInvoiceId}/send`, k.a.office);
  expect(sentInvoice.status, JSON.stringify(sentInvoice.body)).toBe(201);
  const mails = await k.kit.t.db.query(`SELECT payload FROM outbox WHERE topic = 'email.transactional'`);
  const payLink = /\/portal\/invoice\/([A-Za-z0-9_-]{43})/.exec(JSON.stringify(mails.rows.map((r) => r.payload)));
  expect(payLink, 'the pay link A emailed').not.toBeNull();
  const cash = await k.call('POST', `/invoices/${aInvoiceId}/payments`, k.a.office, {
    amount_minor: 1000,
    method: 'cash',
  });
  expect(cash.status, JSON.stringify(cash.body)).toBe(201);
  const [aPaymentId] = await k.a.erp.erp.search('account.payment', [['reconciled_invoice_ids', 'in', [aInvoiceId]]]);
  // A's stocked part, counted: B's ERP database holds no storable product, so no id of A's is B's.
  const aVendor = await k.call('POST', '/supply/suppliers', k.a.owner, { name: 'Alpha Parts', email: null });
  const aPart = await k.call('POST', '/inventory/parts', k.a.office, {
    ...{ name: 'Alpha bracket', supplier_id: aVendor.body.id, cost_minor: 100, reorder_min: 1, reorder_max: 5 },
  });
  expect(aPart.status, JSON.stringify(aPart.body)).toBe(201);
  await k.call('POST', `/inventory/parts/${aPart.body.id}/adjust`, k.a.office, { quantity: 4, reason: 'first count' });
  const aGrid = await k.call('GET', '/sales/price-grids/roller-shade', k.a.office);
  delete aGrid.body.product_code;
  // A technician of A with a calendar feed: B neither manages it nor opens it through B's host.
  aTechnicianId = (await k.kit.member(k.a.id, 'technician')).principal.userId;
  const feed = await k.call('POST', `/technicians/${aTechnicianId}/calendar-feed`, k.a.office);
  expect(feed.status, JSON.stringify(feed.body)).toBe(200);
  // A's job scheduled: its messages carry A's appointment link, which B's host never opens.
  const visit = Date.now() + 3 * 86_400_000;
  const scheduled = await k.call('POST', `/jobs/${aJobId}/schedule`, k.a.office, {
    scheduled_start: new Date(visit).toISOString(),
    scheduled_end: new Date(visit + 3_600_000).toISOString(),
  });
  expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
  const told = await k.kit.t.db.query<{ link: string }>(
    `SELECT vars->>'portal_link' AS link FROM message_schedule WHERE subject_id = $1 AND vars->>'portal_link' <> ''`,
    [aJobId],
  );
  const appointment = /\/portal\/appointment\/([\w-]{43})$/.exec(told.rows[0]?.link ?? '');
  expect(appointment, "A's appointment link").not.toBeNull();
  BODIES[BRANCH_GRID_PUT] = aGrid.body;
  ids = {
    '/api/tenants/{id}': k.a.id,
    '/jobs/{id}': aJobId,
    '/crm/leads/{id}': String(aLeadId),
    // A's customer (the job's): B's ERP database has only its staff's contacts, never a customer with this id.
    '/customers/{id}': String(checklist.body.customer.id),
    '/sales/quotes/{id}': aQuoteId,
    '{domain_id}': domain.body.id,
    '{endpoint_id}': hook.body.id,
    '{delivery_id}': String(deliveryId),
    '{user_id}': office.id,
    '{key_id}': String(key.body.id),
    '{inv_id}': invitations.body.items[0].id,
    '{item_id}': checklist.body.checklist?.[0]?.id ?? 'confirm',
    // The portal's pay page: A's emailed pay link (filled before '{token}', the quote's link).
    'invoices/{token}': `invoices/${payLink![1]}`,
    // The appointment page: the link of A's job messages (filled before '{token}', the quote's link).
    'appointments/{token}': `appointments/${appointment![1]}`,
    '{token}': aPortalToken,
    '{message_id}': text.body.message_id,
    '{kind}': 'logo',
    '{branch_id}': branch.body.id,
    '{product_code}': 'roller-shade',
    // B never reaches A's job, so the window id is never looked at (measurements.routes.test.ts has A's real one).
    '{measurement_id}': '0b7d4f3e-6a1c-4c2e-9f1a-3d5e7a9b1c2d',
    // Whole segments: the portal's invoice route names the invoice after the portal token.
    'invoices/{id}/pdf': `invoices/${aInvoiceId}/pdf`,
    'purchase-orders/{id}/pdf': `purchase-orders/${aPurchaseId}/pdf`,
    'purchase-orders/{id}/confirm': `purchase-orders/${aPurchaseId}/confirm`,
    'purchase-orders/{id}/receive': `purchase-orders/${aPurchaseId}/receive`,
    'invoices/{id}/payments': `invoices/${aInvoiceId}/payments`,
    '/invoices/{id}': String(aInvoiceId),
    // A's cash payment: B's ERP database holds no payment.
    '/payments/{id}': String(aPaymentId),
    'invoices/{id}/send': `invoices/${aInvoiceId}/send`,
    '/inventory/parts/{id}': String(aPart.body.id),
    '/technicians/{id}': aTechnicianId,
    '{file}': /\/calendar\/([\w-]+\.ics)$/.exec(feed.body.url)![1]!,
  };
}, 180_000);
afterAll(async () => k?.close());

/** Routes whose parameters name no tenant-owned record, with the reason they are outside the matrix. */
const OUTSIDE = new Map<string, string>([
  ['/sales/price-grids/{product_code}', "a product code names the caller's own grid (see the grid test below)"],
  ['/supply/products/{code}', "a product code names the caller's own product in its own ERP"],
  ['/inventory/products/{code}/parts', "a product code names the caller's own product (inventory.routes.test.ts)"],
  ['/api/branding/{tenant}/{name}', 'a logo is public like the pages it is on (branding-images.routes.test.ts)'],
  ['/api/website-images/{tenant}/{name}', 'a gallery image is public like the site it is on (website.routes.test.ts)'],
]);

/** Tenant lifecycle is the operator's: any tenant's user is refused before the id is looked at. */
const OPERATOR_ONLY = new Set([
  'DELETE /api/tenants/{id}',
  'POST /api/tenants/{id}/suspend',
  'POST /api/tenants/{id}/resume',
]);

const SMS_PUT = 'PUT /api/tenants/{id}/integrations/sms';
const SMS_LINE = 'POST /api/tenants/{id}/integrations/sms/lines';
const SMS_TEST = 'POST /api/tenants/{id}/integrations/sms/test';
const BRANCH_GRID_PUT = 'PUT /sales/branches/{branch_id}/price-grids/{product_code}';
/** A body each route would accept from A's owner: B must be refused before the body matters. */
const BODIES: Record<string, unknown> = {
  [SMS_PUT]: { api_key: 'alpha-key-0001', api_secret: 'alpha-secret-0001', webhook_base_url: 'http://localhost:8069' },
  [SMS_LINE]: { name: 'Alpha Sales', phone_number: '303 555 0100', line_type: 'sales' },
  [SMS_TEST]: { to: '303 555 0199' },
  'POST /jobs/{id}/schedule': { scheduled_start: '2026-12-01T15:00:00Z', scheduled_end: '2026-12-01T16:00:00Z' },
  'POST /jobs/{id}/assign': { technician_id: '6f1c0c0e-0000-4000-8000-000000000000' },
  'POST /jobs/{id}/stage': { stage: 'scheduled' },
  'POST /jobs/{id}/complete': { resolution: 'done by an intruder' },
  'POST /jobs/{id}/notes': { body: 'intruder note' },
  'PATCH /jobs/{id}/checklist/{item_id}': { done: true },
  'POST /jobs/{id}/uploads': { kind: 'photo_after', content_type: 'image/jpeg', bytes: 10 },
  'POST /jobs/{id}/attachments': { key: 'x', kind: 'photo_before' },
  'POST /jobs/{id}/downloads': { key: 'x' },
  'PUT /jobs/{id}/measurements/{measurement_id}': {
    room: 'Hall',
    product_code: 'roller-shade',
    width_in: 30,
    drop_in: 40,
    mount: 'inside',
  },
  'POST /jobs/{id}/series': { rule: 'FREQ=YEARLY', title: 'intruder series' },
  'PATCH /jobs/{id}/series': { title: 'intruder series' },
  'POST /jobs/{id}/series/preview': { rule: 'FREQ=YEARLY' },
  'PATCH /crm/leads/{id}': { stage_id: 1 },
  'POST /customers/{id}/notes': { body: 'intruder note' },
  'POST /customers/{id}/merge': { duplicate_id: 1 },
  'PUT /api/tenants/{id}/settings': { company_name: 'Hijacked' },
  'PUT /api/tenants/{id}/plan': { plan: 'free' },
  'POST /api/tenants/{id}/domains': { domain: 'hijack.test' },
  'POST /api/tenants/{id}/webhooks': { url: 'https://hijack.test/in', events: ['lead.created'] },
  'PATCH /api/tenants/{id}/webhooks/{endpoint_id}': { enabled: false },
  'POST /api/tenants/{id}/invitations': { email: 'intruder@beta.test', role: 'office' },
  'POST /api/tenants/{id}/api-keys': { description: 'intruder' },
  'POST /api/tenants/{id}/branches': { name: 'Intruder', zip_codes: ['80211'] },
  'PUT /api/tenants/{id}/branches/{branch_id}': { name: 'Hijacked', zip_codes: [] },
  'PATCH /api/tenants/{id}/users/{user_id}': { role: 'technician' },
  'PUT /api/tenants/{id}/website/draft': defaultWebsiteContent('Hijacked'),
  'POST /api/tenants/{id}/website/rollback': { version: 1 },
  'PUT /api/tenants/{id}/website/tracking': { meta_pixel_id: '99999999' },
  'PUT /api/tenants/{id}/payments/deposit-rule': { kind: 'none' },
  'POST /sales/quotes/{id}/deposit': { method: 'cash', amount_minor: 1000, reference: 'intruder' },
  'POST /portal/quotes/{token}/accept': { name: 'Intruder', signature_png_base64: 'iVBORw0KGgo=' },
  'POST /portal/quotes/{token}/request-changes': { note: 'intruder note' },
  'POST /invoices/{id}/payments': { amount_minor: 100, method: 'cash' },
  'PUT /api/tenants/{id}/invoicing': { auto_invoice: true },
  'PUT /api/tenants/{id}/integrations/accounting/tax-mapping': { tax_types: { '1': 'OUTPUT' } },
  'PUT /api/tenants/{id}/messages': {
    reminder_hour: 9,
    review_link: null,
    review_delay_hours: 1,
    quote_follow_up_days: 2,
    invoice_reminder_days: 3,
    kinds: [{ kind: 'reminder', enabled: false, sms: 'hijacked', subject: 'hijacked', email: 'hijacked' }],
  },
  'POST /api/tenants/{id}/messages/preview': { kind: 'reminder' },
  'PUT /customers/{id}/message-channel': { channel: 'email' },
  'PUT /customers/{id}/time-zone': { time_zone: 'Europe/Dublin' },
  'POST /payments/{id}/refund': { amount_minor: 100 },
  'POST /purchase-orders/{id}/receive': { lines: [{ line_id: 1, qty: 1 }] },
  'POST /inventory/parts/{id}/adjust': { quantity: 0, reason: 'intruder count' },
  'POST /inventory/parts/{id}/receive': { qty: 1 },
  'POST /jobs/{id}/parts-used': { parts: [{ part_id: 1, qty: 1 }] },
};

/** The path with A's ids in place: a key starting with `/` fills the first `{…}` after that prefix. */
function fill(path: string): string | undefined {
  let out = path;
  for (const [key, id] of Object.entries(ids)) {
    if (!key.startsWith('/')) out = out.replace(key, id);
    else if (out.startsWith(key)) out = key.replace(/\{[a-z_]+\}/, id) + out.slice(key.length);
  }
  return /\{[a-z_]+\}/.test(out) ? undefined : out;
}

/** What A's people see of A's records, to compare before and after B's calls. */
const recordsOfA = async () =>
  (
    await Promise.all([
      k.call('GET', `/jobs/${aJobId}`, k.a.office),
      k.call('GET', `/sales/quotes/${aQuoteId}`, k.a.office),
      k.call('GET', `/crm/leads/${aLeadId}`, k.a.office),
      k.call('GET', `/customers/${ids['/customers/{id}']}`, k.a.office),
      k.call('GET', `/api/tenants/${k.a.id}/settings`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/domains`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/users`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/webhooks`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/api-keys`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/invitations`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/webhooks/${ids['{endpoint_id}']}/deliveries`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/integrations`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/branches`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/website`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/website/tracking`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/payments`, k.a.owner),
      k.call('GET', '/invoices?state=open', k.a.office),
      k.call('GET', `/api/tenants/${k.a.id}/invoicing`, k.a.owner),
      k.call('GET', `/api/tenants/${k.a.id}/messages`, k.a.owner),
      k.call('GET', `/customers/${ids['/customers/{id}']}/messages`, k.a.office),
      k.call('GET', '/inventory/parts', k.a.office),
      k.call('GET', `/technicians/${aTechnicianId}/calendar-feed`, k.a.office),
    ])
  ).map((r) => r.body);

async function routes(): Promise<{ method: string; path: string }[]> {
  const doc = (await k.kit.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, object> };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => ({ method: m.toUpperCase(), path })),
  );
}

describe('the cross-tenant matrix', () => {
  it("answers 404 to B for every route that names one of A's records, and A's records stay as they were", async () => {
    const before = await recordsOfA();
    const walked: string[] = [];
    const unmatched: string[] = [];
    const wrong: string[] = [];
    for (const { method, path } of await routes()) {
      if (!path.includes('{') || OUTSIDE.has(path)) continue;
      const url = fill(path);
      if (!url) {
        unmatched.push(`${method} ${path}`);
        continue;
      }
      const portal = path.startsWith('/portal/') || path.startsWith('/calendar/');
      // The portal and calendar feeds have no accounts: B is B's host (x-tenant-id) holding A's token.
      const r = await k.call(method, url, portal ? undefined : k.b.owner, BODIES[`${method} ${path}`], {
        ...(portal ? { 'x-tenant-id': k.b.id } : {}),
        'idempotency-key': `matrix-${walked.length}`,
      });
      const expected = OPERATOR_ONLY.has(`${method} ${path}`) ? '401 OPERATOR_REQUIRED' : '404';
      const got = expected === '404' ? String(r.status) : `${r.status} ${r.body?.code}`;
      walked.push(`${method} ${path}`);
      if (got !== expected) wrong.push(`${method} ${path}: ${got}, expected ${expected}`);
    }
    expect(unmatched, 'routes with an id the matrix cannot fill: add them to ids or OUTSIDE').toEqual([]);
    expect(wrong).toEqual([]);
    expect(walked.length).toBeGreaterThanOrEqual(30);
    const after = await recordsOfA();
    expect(after).toEqual(before);
    const portal = await k.call('GET', `/portal/quotes/${aPortalToken}`, undefined, undefined, {
      'x-tenant-id': k.a.id,
    });
    expect(portal.body.quote.accepted).toBeNull();
  }, 120_000);

  it("never lists A's records in B's lists", async () => {
    const lists = await Promise.all(
      [
        '/jobs?page_size=100',
        '/crm/leads?page_size=100',
        '/customers?page_size=100',
        '/search?q=ann',
        '/sales/quotes',
        '/sales/orders',
        '/api/audit',
        '/invoices?state=open',
        '/inventory/parts',
      ].map((u) => k.call('GET', u, k.b.owner)),
    );
    for (const r of lists) expect(r.status).toBe(200);
    const text = JSON.stringify(lists.map((r) => r.body));
    for (const id of [aJobId, aQuoteId, 'Ann Alpha', 'A lead 4', 'ann@alpha.test', 'Alpha bracket'])
      expect(text).not.toContain(id);
  });

  it("keeps each tenant's price grid its own: B's change of a product code leaves A's grid alone", async () => {
    const aGrid = await k.call('GET', '/sales/price-grids/roller-shade', k.a.office);
    const changed = { ...aGrid.body, name: 'Bravo roller' };
    delete changed.product_code;
    const put = await k.call('PUT', '/sales/price-grids/roller-shade', k.b.owner, changed);
    expect(put.status).toBe(200);
    expect((await k.call('GET', '/sales/price-grids/roller-shade', k.a.office)).body).toEqual(aGrid.body);
    expect((await k.call('GET', '/sales/price-grids/roller-shade', k.b.office)).body.name).toBe('Bravo roller');
  });
});
