/**
 * Invoicing automatically when an install job completes: off by default (completing queues nothing);
 * once an owner turns it on, completing queues one outbox job in the transaction that records the
 * completion, and its handler makes the job's one posted final invoice, as the office's "Invoice"
 * would (a second run, or the office's click after it, answers the same invoice). Settings are the
 * owners' and admins', and only of their own tenant.
 */
import { type OutboxRow } from '@platform/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, type SalesTenant, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { acceptedOrder } from './invoicing.test-support.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

async function jobOnConfirmedOrder(t: SalesTenant): Promise<string> {
  const { orderId } = await acceptedOrder(k, t, { customer: 'Auto Invoice' });
  const job = await k.call('POST', '/jobs', t.office, {
    customer: { name: 'Auto Invoice' },
    address: { street: '3 Main St', city: 'Denver', zip: '80202' },
    windows: [],
    sale_order_id: orderId,
  });
  return job.body.id as string;
}

const complete = (t: SalesTenant, jobId: string) =>
  k.call('POST', `/jobs/${jobId}/complete`, t.office, { resolution: 'Fitted.' });
const queued = async (jobId: string) =>
  (
    await k.kit.t.db.query<OutboxRow<'invoicing.auto_invoice'>>(
      `SELECT * FROM outbox WHERE topic = 'invoicing.auto_invoice' AND aggregate_id = $1`,
      [jobId],
    )
  ).rows;

describe('invoicing automatically when a job completes', () => {
  it('is off by default: completing a job queues nothing', async () => {
    expect((await k.call('GET', `/api/tenants/${k.a.id}/invoicing`, k.a.owner)).body).toEqual({ auto_invoice: false });
    const jobId = await jobOnConfirmedOrder(k.a);
    expect((await complete(k.a, jobId)).status).toBe(200);
    expect(await queued(jobId)).toEqual([]);
  });

  it('is the owners’ and admins’ setting, of their own tenant only', async () => {
    expect((await k.call('PUT', `/api/tenants/${k.a.id}/invoicing`, k.a.office, { auto_invoice: true })).status).toBe(
      403,
    );
    expect((await k.call('PUT', `/api/tenants/${k.a.id}/invoicing`, k.b.owner, { auto_invoice: true })).status).toBe(
      404,
    );
    const bad = await k.call('PUT', `/api/tenants/${k.a.id}/invoicing`, k.a.owner, { auto_invoice: 'yes' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('auto_invoice');
    expect((await k.call('GET', `/api/tenants/${k.a.id}/invoicing`, k.a.owner)).body).toEqual({ auto_invoice: false });
  });

  it('once on, queues one job with the completion, whose handler makes the one posted invoice', async () => {
    const on = await k.call('PUT', `/api/tenants/${k.a.id}/invoicing`, k.a.owner, { auto_invoice: true });
    expect(on.body).toEqual({ auto_invoice: true });
    const jobId = await jobOnConfirmedOrder(k.a);
    expect((await complete(k.a, jobId)).status).toBe(200);
    const rows = await queued(jobId);
    expect(rows).toHaveLength(1);
    const row = {
      ...rows[0]!,
      payload: typeof rows[0]!.payload === 'string' ? JSON.parse(rows[0]!.payload) : rows[0]!.payload,
    };
    const first = (await k.kit.deps.invoicing.auto.handle(row)) as { invoiceId: number; outcome: string };
    expect(first.outcome).toBe('created');
    // The worker killed before marking the row: the job runs again and finds the invoice.
    expect(await k.kit.deps.invoicing.auto.handle(row)).toEqual({ invoiceId: first.invoiceId, outcome: 'updated' });
    const office = await k.call('POST', `/jobs/${jobId}/invoice`, k.a.office);
    expect(office.status).toBe(200);
    expect(office.body.invoice.id).toBe(first.invoiceId);
    expect((await k.a.erp.erp.read('account.move', [first.invoiceId], ['state']))[0]!.state).toBe('posted');
    const audit = await k.kit.t.db.query(
      `SELECT actor_kind FROM audit_log WHERE action = 'invoicing.job.invoice' AND target_id = $1`,
      [jobId],
    );
    expect(audit.rows).toEqual([{ actor_kind: 'system' }]);
  });

  it('leaves a job it cannot invoice to the office, without retrying', async () => {
    const job = await k.call('POST', '/jobs', k.a.office, {
      customer: { name: 'No Order' },
      address: { street: '4 Main St', city: 'Denver', zip: '80202' },
      windows: [],
    });
    expect((await complete(k.a, job.body.id)).status).toBe(200);
    const [row] = await queued(job.body.id);
    const parsed = { ...row!, payload: typeof row!.payload === 'string' ? JSON.parse(row!.payload) : row!.payload };
    expect(await k.kit.deps.invoicing.auto.handle(parsed)).toEqual({ skipped: 'INVOICE_NOT_DUE', reason: 'no_order' });
  });
});
