/** /crm/leads against each tenant's own ERP database: list, filters, read, update, convert, isolation, roles. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';

let k: CrmSalesKit;
const aLeads: number[] = [];
let stageWon: number;

beforeAll(async () => {
  k = await startCrmSalesKit();
  const erp = k.a.erp.erp;
  const callback = await erp.create('crm.tag', { name: 'PHONE CALLBACK' });
  const site = await erp.create('crm.tag', { name: 'SITE: Acme Blinds' });
  aLeads.push(
    await erp.create('crm.lead', {
      name: 'Roller Shade – Ann Lee',
      contact_name: 'Ann Lee',
      email_from: 'ann@example.com',
      phone: '303-555-0101',
      tag_ids: [[6, 0, [site]]],
      x_form_source: 'product-inline:roller-shade',
      x_gclid: 'gclid-123',
    }),
    await erp.create('crm.lead', {
      name: 'Callback request – Bo Park',
      contact_name: 'Bo Park',
      phone: '303-555-0102',
      tag_ids: [[6, 0, [callback, site]]],
    }),
    await erp.create('crm.lead', {
      name: 'Shutters – Cy Diaz',
      contact_name: 'Cy Diaz',
      email_from: 'cy@example.com',
      type: 'opportunity',
    }),
    await erp.create('crm.lead', { name: 'Wood Blind – Di Fox', contact_name: 'Di Fox', email_from: 'di@example.com' }),
  );
  await k.b.erp.erp.create('crm.lead', { name: 'B only', contact_name: 'Bee', email_from: 'bee@example.com' });
  stageWon = await erp.create('crm.stage', { name: 'Won', sequence: 70, is_won: true });
}, 120_000);
afterAll(async () => k?.close());

describe('CRM leads', () => {
  it('lists leads with source, tags, callback flag and attribution', async () => {
    const r = await k.call('GET', '/crm/leads?type=lead', k.a.office);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(3);
    const ann = r.body.items.find((l: { id: number }) => l.id === aLeads[0]);
    expect(ann).toMatchObject({
      contact_name: 'Ann Lee',
      source: 'product-inline:roller-shade',
      tags: ['SITE: Acme Blinds'],
      callback: false,
      type: 'lead',
    });
    expect(ann.attribution.gclid).toBe('gclid-123');
    expect(r.body.items.find((l: { id: number }) => l.id === aLeads[1]).callback).toBe(true);
  });

  it('filters by free text and pages', async () => {
    expect(
      (await k.call('GET', '/crm/leads?q=cy%40example', k.a.office)).body.items.map((l: { id: number }) => l.id),
    ).toEqual([aLeads[2]]);
    const page = await k.call('GET', '/crm/leads?page=2&page_size=3', k.a.office);
    expect(page.body).toMatchObject({ page: 2, page_size: 3, total: 4 });
    expect(page.body.items).toHaveLength(1);
    expect((await k.call('GET', '/crm/leads?page_size=101', k.a.office)).status).toBe(422);
  });

  it('moves a lead to a stage and assigns it, audited', async () => {
    const r = await k.call('PATCH', `/crm/leads/${aLeads[0]}`, k.a.office, {
      stage_id: stageWon,
      priority: '2',
      description: 'Measured <3 windows>\n\nCall back Friday',
    });
    expect(r.status).toBe(200);
    expect(r.body.description).toBe('<p>Measured &lt;3 windows&gt;</p><p>Call back Friday</p>');
    expect(r.body.stage).toEqual({ id: stageWon, name: 'Won' });
    expect(
      (await k.call('GET', `/crm/leads?stage=${stageWon}`, k.a.office)).body.items.map((l: { id: number }) => l.id),
    ).toEqual([aLeads[0]]);
    const audit = await k.kit.t.db.query<{ target_id: string }>(
      `SELECT target_id FROM audit_log WHERE tenant_id = $1 AND action = 'crm.lead.update'`,
      [k.a.id],
    );
    expect(audit.rows.map((x) => x.target_id)).toEqual([String(aLeads[0])]);
  });

  it('lists the pipeline stages a lead can move to', async () => {
    const r = await k.call('GET', '/crm/stages', k.a.office);
    expect(r.status).toBe(200);
    expect(r.body.items).toContainEqual(expect.objectContaining({ id: stageWon, name: 'Won', is_won: true }));
  });

  it('refuses a stage the ERP does not have, naming the field', async () => {
    const r = await k.call('PATCH', `/crm/leads/${aLeads[0]}`, k.a.office, { stage_id: 999_999 });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([expect.objectContaining({ field: 'stage_id', rule: 'exists' })]);
  });

  it('converts a lead into an opportunity with its customer, and converting again answers the same', async () => {
    const r = await k.call('POST', `/crm/leads/${aLeads[3]}/convert`, k.a.office);
    expect(r.status).toBe(200);
    const [lead] = await k.a.erp.erp.read('crm.lead', [aLeads[3]!], ['type', 'partner_id']);
    expect(lead!.type).toBe('opportunity');
    expect((lead!.partner_id as [number, string])[0]).toBe(r.body.partner_id);
    const [partner] = await k.a.erp.erp.read('res.partner', [r.body.partner_id], ['email']);
    expect(partner!.email).toBe('di@example.com');
    expect((await k.call('POST', `/crm/leads/${aLeads[3]}/convert`, k.a.office)).body).toEqual(r.body);
  });

  it("answers 404 to another tenant's user for every lead endpoint", async () => {
    const id = aLeads[3]!; // tenant B's ERP has one lead; this id is A's only
    expect((await k.call('GET', `/crm/leads/${id}`, k.b.office)).status).toBe(404);
    expect((await k.call('PATCH', `/crm/leads/${id}`, k.b.office, { priority: '1' })).status).toBe(404);
    expect((await k.call('POST', `/crm/leads/${id}/convert`, k.b.office)).status).toBe(404);
    expect((await k.call('GET', '/crm/leads', k.b.office)).body.items.map((l: { name: string }) => l.name)).toEqual([
      'B only',
    ]);
  });

  it('keeps technicians and strangers out', async () => {
    expect((await k.call('GET', '/crm/leads', k.a.technician)).body.code).toBe('ROLE_FORBIDDEN');
    expect((await k.call('PATCH', `/crm/leads/${aLeads[0]}`, k.a.technician, { priority: '1' })).status).toBe(403);
    expect((await k.call('GET', '/crm/leads', undefined)).status).toBe(401);
  });
});
