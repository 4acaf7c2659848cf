/** GET /search against each tenant's own ERP database: what it finds by name, phone, email and reference; isolation; roles. */
import { DEN_JOB_WINDOW, oneWindowQuote } from '@platform/contracts/examples.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';

let k: CrmSalesKit;
let jobId: string;
let jobName: string;
let quoteId: string;
let quoteName: string;

beforeAll(async () => {
  k = await startCrmSalesKit();
  await k.a.erp.erp.create('crm.lead', {
    name: 'Shutters – Gina Green',
    contact_name: 'Gina Green',
    email_from: 'gina@example.com',
    phone: '303-555-0123',
  });
  const job = await k.call('POST', '/jobs', k.a.office, {
    customer: { name: 'Gina Green', phone: '(303) 555 0123', email: 'gina@example.com' },
    address: { street: '4 Birch Ln', city: 'Denver', zip: '80202' },
    windows: [DEN_JOB_WINDOW],
  });
  expect(job.status, JSON.stringify(job.body)).toBe(201);
  [jobId, jobName] = [job.body.id, job.body.name];
  const quote = await k.call(
    'POST',
    '/sales/quotes',
    k.a.office,
    oneWindowQuote({ customer: { name: 'Gina Green', email: 'gina@example.com' } }),
  );
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  [quoteId, quoteName] = [quote.body.id, quote.body.name];
  await k.a.erp.erp.create('res.partner', { name: 'Hank Hill', email: 'hank@example.com' });
}, 120_000);
afterAll(async () => k?.close());

describe('the office search', () => {
  it('finds the customer, the lead, the quote and the job by a phone typed another way', async () => {
    const r = await k.call('GET', '/search?q=303.555.0123', k.a.office);
    expect(r.status).toBe(200);
    expect(r.body.customers.map((c: { name: string }) => c.name)).toEqual(['Gina Green']);
    expect(r.body.leads.map((l: { contact_name: string }) => l.contact_name)).toEqual(['Gina Green']);
    expect(r.body.quotes).toEqual([
      expect.objectContaining({ quote_id: quoteId, name: quoteName, customer: 'Gina Green' }),
    ]);
    expect(r.body.jobs).toEqual([expect.objectContaining({ id: jobId, name: jobName, customer: 'Gina Green' })]);
  });

  it('finds a quote or a job by its reference, and by email', async () => {
    const byRef = await k.call('GET', `/search?q=${encodeURIComponent(jobName)}`, k.a.office);
    expect(byRef.body.jobs.map((j: { id: string }) => j.id)).toEqual([jobId]);
    expect(byRef.body.customers).toEqual([]);
    const byQuote = await k.call('GET', `/search?q=${encodeURIComponent(quoteName)}`, k.a.office);
    expect(byQuote.body.quotes.map((q: { quote_id: string }) => q.quote_id)).toEqual([quoteId]);
    const byEmail = await k.call('GET', '/search?q=hank%40example', k.a.office);
    expect(byEmail.body).toEqual({
      customers: [expect.objectContaining({ name: 'Hank Hill' })],
      leads: [],
      quotes: [],
      jobs: [],
    });
  });

  it('asks for at least 2 characters, naming the field', async () => {
    const r = await k.call('GET', '/search?q=a', k.a.office);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([expect.objectContaining({ field: 'q' })]);
  });

  it("never finds another tenant's records, and keeps technicians and strangers out", async () => {
    const b = await k.call('GET', '/search?q=gina', k.b.office);
    expect(b.body).toEqual({ customers: [], leads: [], quotes: [], jobs: [] });
    expect((await k.call('GET', '/search?q=gina', k.a.technician)).body.code).toBe('ROLE_FORBIDDEN');
    expect((await k.call('GET', '/search?q=gina', undefined)).status).toBe(401);
  });
});
