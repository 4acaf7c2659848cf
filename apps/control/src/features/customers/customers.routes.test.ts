/** /customers against each tenant's own ERP database: search, the customer page, notes, merging, isolation, roles. */
import { DEN_JOB_WINDOW, oneWindowQuote } from '@platform/contracts/examples.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';

let k: CrmSalesKit;
let ann: number;
let annAgain: number;
let bob: number;
let annLead: number;
let jobId: string;
let quoteId: string;

beforeAll(async () => {
  k = await startCrmSalesKit();
  const erp = k.a.erp.erp;
  ann = await erp.create('res.partner', {
    name: 'Ann Lee',
    email: 'ann@example.com',
    phone: '303-555-0101',
    street: '12 Elm St',
    city: 'Denver',
    customer_rank: 1,
  });
  bob = await erp.create('res.partner', {
    name: 'Bob Stone',
    phone: '720 555 0199',
    street: '9 Oak Ave',
    city: 'Boulder',
  });
  annLead = await erp.create('crm.lead', { name: 'Shutters – Ann Lee', partner_id: ann, contact_name: 'Ann Lee' });
  await erp.call('crm.lead', 'message_post', [[annLead]], {
    body: '<p>Can you come Friday?</p>',
    message_type: 'comment',
  });
  // The office books a job for "Ann" by hand: the job makes a second contact with the same phone.
  const job = await k.call('POST', '/jobs', k.a.office, {
    customer: { name: 'Ann L.', phone: '+1 (303) 555 0101' },
    address: { street: '12 Elm St', city: 'Denver', zip: '80202' },
    windows: [DEN_JOB_WINDOW],
  });
  expect(job.status, JSON.stringify(job.body)).toBe(201);
  jobId = job.body.id;
  annAgain = Number(job.body.customer.id);
  const quote = await k.call(
    'POST',
    '/sales/quotes',
    k.a.office,
    oneWindowQuote({ customer: { name: 'Ann Lee', email: 'ANN@example.com' } }),
  );
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  quoteId = quote.body.id;
  await k.b.erp.erp.create('res.partner', { name: 'Bee Only', email: 'bee@example.com' });
}, 120_000);
afterAll(async () => k?.close());

const names = (r: { body: { items: { name: string }[] } }) => r.body.items.map((c) => c.name).sort();

describe('customers', () => {
  it('lists customers, not staff, and finds them by name, phone in any punctuation, email and address', async () => {
    const all = await k.call('GET', '/customers', k.a.office);
    expect(all.status).toBe(200);
    expect(names(all)).toEqual(['Ann L.', 'Ann Lee', 'Bob Stone']);
    expect(all.body).toMatchObject({ page: 1, page_size: 25, total: 3 });
    expect(names(await k.call('GET', '/customers?q=lee', k.a.office))).toEqual(['Ann Lee']);
    expect(names(await k.call('GET', '/customers?q=(303)%205550101', k.a.office))).toEqual(['Ann L.', 'Ann Lee']);
    expect(names(await k.call('GET', '/customers?q=ANN%40example', k.a.office))).toEqual(['Ann Lee']);
    expect(names(await k.call('GET', '/customers?q=oak%20ave', k.a.office))).toEqual(['Bob Stone']);
    expect((await k.call('GET', '/customers?q=nobody', k.a.office)).body).toMatchObject({ items: [], total: 0 });
  });

  it('refuses a bad search or id naming the field', async () => {
    const long = await k.call('GET', `/customers?q=${'x'.repeat(101)}`, k.a.office);
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual([expect.objectContaining({ field: 'q' })]);
    const bad = await k.call('GET', '/customers/abc', k.a.office);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'id' })]);
  });

  it("shows a customer's leads, quotes, jobs and messages, and the contact with the same phone as a duplicate", async () => {
    const r = await k.call('GET', `/customers/${ann}`, k.a.office);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ann, name: 'Ann Lee', email: 'ann@example.com', phone: '303-555-0101' });
    expect(r.body.leads.map((l: { id: number }) => l.id)).toEqual([annLead]);
    expect(r.body.quotes).toEqual([expect.objectContaining({ quote_id: quoteId, state: 'draft' })]);
    expect(r.body.jobs).toEqual([]);
    expect(r.body.messages).toEqual([
      expect.objectContaining({ body: 'Can you come Friday?', on: 'lead', kind: 'message' }),
    ]);
    expect(r.body.duplicates).toEqual([
      expect.objectContaining({ id: annAgain, name: 'Ann L.', matched_on: ['phone'] }),
    ]);
    const other = await k.call('GET', `/customers/${annAgain}`, k.a.office);
    expect(other.body.jobs).toEqual([expect.objectContaining({ stage: 'New' })]);
  });

  it('adds a note to the customer, escaped, and audits it', async () => {
    const r = await k.call('POST', `/customers/${ann}/notes`, k.a.office, {
      body: 'Prefers <texts>\n\nGate code 4411',
    });
    expect(r.status).toBe(200);
    expect(r.body.notes).toEqual([expect.objectContaining({ body: 'Prefers <texts>\nGate code 4411', kind: 'note' })]);
    expect(r.body.notes[0].author).toMatch(/@/);
    const [msg] = await k.a.erp.erp.searchRead(
      'mail.message',
      [
        ['model', '=', 'res.partner'],
        ['res_id', '=', ann],
      ],
      {
        fields: ['body'],
      },
    );
    expect(msg!.body).toBe('<p>Prefers &lt;texts&gt;</p><p>Gate code 4411</p>');
    const audit = await k.kit.t.db.query<{ target_id: string }>(
      `SELECT target_id FROM audit_log WHERE tenant_id = $1 AND action = 'customer.note'`,
      [k.a.id],
    );
    expect(audit.rows.map((x) => x.target_id)).toEqual([String(ann)]);
    const empty = await k.call('POST', `/customers/${ann}/notes`, k.a.office, { body: '   ' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([expect.objectContaining({ field: 'body' })]);
  });

  it('merges the duplicate: its job moves to the kept customer, the other is archived, audited', async () => {
    const self = await k.call('POST', `/customers/${ann}/merge`, k.a.office, { duplicate_id: ann });
    expect(self.status).toBe(422);
    expect(self.body.errors).toEqual([expect.objectContaining({ field: 'duplicate_id', rule: 'other' })]);
    const r = await k.call('POST', `/customers/${ann}/merge`, k.a.office, { duplicate_id: annAgain });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.jobs).toEqual([expect.objectContaining({ stage: 'New' })]);
    expect(r.body.duplicates).toEqual([]);
    expect((await k.call('GET', `/jobs/${jobId}`, k.a.office)).body.customer).toMatchObject({
      id: ann,
      name: 'Ann Lee',
    });
    // The job list names the kept customer too (its row reads no partner).
    const listed = (await k.call('GET', '/jobs?stage=new', k.a.office)).body.items;
    expect(listed.find((j: { id: string }) => j.id === jobId).customer).toEqual({
      name: 'Ann Lee',
      phone: '303-555-0101',
    });
    expect((await k.call('GET', `/customers/${annAgain}`, k.a.office)).status).toBe(404);
    expect(names(await k.call('GET', '/customers', k.a.office))).toEqual(['Ann Lee', 'Bob Stone']);
    const again = await k.call('POST', `/customers/${ann}/merge`, k.a.office, { duplicate_id: annAgain });
    expect(again.body.errors).toEqual([expect.objectContaining({ field: 'duplicate_id', rule: 'exists' })]);
    const audit = await k.kit.t.db.query<{ target_id: string; detail: { merged: number } }>(
      `SELECT target_id, detail FROM audit_log WHERE tenant_id = $1 AND action = 'customer.merge'`,
      [k.a.id],
    );
    expect(audit.rows.map((x) => [x.target_id, x.detail.merged])).toEqual([[String(ann), annAgain]]);
  });

  it("answers 404 to another tenant's user, whose list shows only their own", async () => {
    expect((await k.call('GET', `/customers/${bob}`, k.b.office)).status).toBe(404);
    expect((await k.call('POST', `/customers/${bob}/notes`, k.b.office, { body: 'x' })).status).toBe(404);
    expect((await k.call('POST', `/customers/${bob}/merge`, k.b.office, { duplicate_id: ann })).status).toBe(404);
    expect(names(await k.call('GET', '/customers', k.b.office))).toEqual(['Bee Only']);
  });

  it('keeps technicians and strangers out', async () => {
    expect((await k.call('GET', '/customers', k.a.technician)).body.code).toBe('ROLE_FORBIDDEN');
    expect((await k.call('POST', `/customers/${ann}/notes`, k.a.technician, { body: 'x' })).status).toBe(403);
    expect((await k.call('GET', '/customers', undefined)).status).toBe(401);
  });
});
