/**
 * "Send to customer": the portal link is emailed to the quote's customer and texted when the tenant
 * has an SMS line; a retried send (same Idempotency-Key) emails and texts nothing again; a quote for
 * an existing ERP customer uses that customer's own email; links carry the origin that serves them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { threeWindows } from '../../testing/quote-fixtures.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

const window = { ...threeWindows.lines[0]!, options: [] };
const dana = {
  name: 'Dana Whitfield',
  email: 'dana.send@example.com',
  phone: '720-555-0142',
  street: '12 Elm Street',
  city: 'Denver',
  zip: '80202',
};

async function emailsTo(address: string) {
  const r = await k.kit.t.db.query<{ template: string; text: string; subject: string }>(
    `SELECT m.template, o.payload->>'text' AS text, o.payload->>'subject' AS subject
       FROM email_messages m JOIN outbox o ON o.aggregate_id = m.id::text WHERE m.to_address = $1 ORDER BY o.id`,
    [address],
  );
  return r.rows;
}

async function textsTo(tenantId: string, number: string) {
  const r = await k.kit.t.db.query<{ body: string; line_number: string; topic: string }>(
    `SELECT s.body, s.line_number, o.topic FROM sms_messages s JOIN outbox o ON o.aggregate_id = s.id::text
      WHERE s.tenant_id = $1 AND s.contact_number = $2 ORDER BY o.id`,
    [tenantId, number],
  );
  return r.rows;
}

describe('sending a quote to the customer', () => {
  it('emails the portal link to the customer, and the answer says so', async () => {
    const q = (await k.call('POST', '/sales/quotes', k.a.office, { customer: dana, lines: [window] })).body;
    const r = await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office, undefined, {
      'idempotency-key': 'send-1',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ emailed_to: dana.email, texted_to: null, repeated: false });
    const mails = await emailsTo(dana.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.template).toBe('portal_quote_link');
    expect(mails[0]!.subject).toContain(q.name);
    expect(mails[0]!.text).toContain(r.body.portal_url);
    // The customer's site address is kept with the quote (the install job is prefilled from it).
    const again = (await k.call('GET', `/sales/quotes/${q.id}`, k.a.office)).body;
    expect(again.customer).toMatchObject({ street: '12 Elm Street', city: 'Denver', zip: '80202' });
    expect(again.state).toBe('sent');
  });

  it('texts the link too when the tenant has an SMS line, and a retry sends nothing again', async () => {
    await k.kit.t.db.query(
      `INSERT INTO sms_lines (tenant_id, name, phone_number, line_type, is_default) VALUES ($1, 'Sales', '13035550100', 'sales', true)`,
      [k.a.id],
    );
    const who = { ...dana, email: 'dana.text@example.com', phone: '(720) 555-0199' };
    const q = (await k.call('POST', '/sales/quotes', k.a.office, { customer: who, lines: [window] })).body;
    const send = () =>
      k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office, undefined, { 'idempotency-key': 'send-text-1' });
    const first = await send();
    expect(first.body).toMatchObject({ emailed_to: who.email, texted_to: '17205550199', repeated: false });
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ emailed_to: who.email, texted_to: '17205550199', repeated: true });
    // The retry's link works too (a fresh one: the first token is not kept), but nothing was sent again.
    expect(retry.body.portal_url).toMatch(/\/portal\/quote\/[A-Za-z0-9_-]{43}$/);
    expect(await emailsTo(who.email)).toHaveLength(1);
    const texts = await textsTo(k.a.id, '17205550199');
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ line_number: '13035550100', topic: 'sms.send' });
    expect(texts[0]!.body).toContain(first.body.portal_url);
    // A new send request (another key) is a new send: the customer gets the link again.
    await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office, undefined, { 'idempotency-key': 'send-text-2' });
    expect(await emailsTo(who.email)).toHaveLength(2);
  });

  it("uses an existing ERP customer's own email and address", async () => {
    const partner = await k.a.erp.erp.create('res.partner', {
      name: 'Old Customer',
      email: 'old.customer@example.com',
      street: '9 Oak Road',
      city: 'Boulder',
      zip: '80301',
    });
    const q = (await k.call('POST', '/sales/quotes', k.a.office, { partner_id: partner, lines: [window] })).body;
    expect(q.customer).toBeNull();
    const read = (await k.call('GET', `/sales/quotes/${q.id}`, k.a.office)).body;
    expect(read.customer).toMatchObject({ name: 'Old Customer', street: '9 Oak Road', zip: '80301' });
    const r = await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office);
    expect(r.body.emailed_to).toBe('old.customer@example.com');
    expect(await emailsTo('old.customer@example.com')).toHaveLength(1);
  });

  it('makes only the link when the customer has neither email nor phone', async () => {
    const q = (await k.call('POST', '/sales/quotes', k.a.office, { customer: { name: 'Walk In' }, lines: [window] }))
      .body;
    const r = await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ emailed_to: null, texted_to: null });
    expect(r.body.portal_url).toMatch(/^https:\/\/acme-blinds\.tenants\.localhost\/portal\/quote\//);
  });

  it('puts the frontend port in the link when no proxy runs and the frontend port is known', async () => {
    k.kit.deps.publicOrigins.frontendListensOn('http://127.0.0.1:41234');
    const q = (await k.call('POST', '/sales/quotes', k.a.office, { customer: { name: 'Port' }, lines: [window] })).body;
    const r = await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office);
    expect(r.body.portal_url).toMatch(/^http:\/\/acme-blinds\.tenants\.localhost:41234\/portal\/quote\//);
  });

  it("refuses a malformed Idempotency-Key and another tenant's quote", async () => {
    const q = (await k.call('POST', '/sales/quotes', k.a.office, { customer: dana, lines: [window] })).body;
    const bad = await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office, undefined, {
      'idempotency-key': 'x'.repeat(300),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
    expect((await k.call('POST', `/sales/quotes/${q.id}/send`, k.b.office)).status).toBe(404);
  });
});
