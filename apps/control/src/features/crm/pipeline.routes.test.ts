/**
 * The pipeline follows the work: a quote made for a lead and sent moves the lead to "Proposition",
 * accepted to the won stage (the ERP's own stages by default); a tenant may name other stages or
 * none; a lead never moves backwards; another tenant's rules are its own.
 */
import type { Erp } from '@platform/erp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { threeWindows } from '../../testing/quote-fixtures.js';

let k: CrmSalesKit;
const stage: Record<string, number> = {};

beforeAll(async () => {
  k = await startCrmSalesKit();
  const erp = k.a.erp.erp;
  for (const [name, sequence, is_won] of [
    ['New', 1, false],
    ['Qualified', 2, false],
    ['Proposition', 3, false],
    ['Won', 70, true],
  ] as const) {
    const [found] = await erp.search('crm.stage', [['name', '=', name]], { limit: 1 });
    stage[name] = found ?? (await erp.create('crm.stage', { name, sequence, is_won }));
  }
}, 120_000);
afterAll(async () => k?.close());

const window = { ...threeWindows.lines[0]!, options: [] };

async function leadInStage(erp: Erp, name: string, stageId: number): Promise<number> {
  return erp.create('crm.lead', { name: `Estimate – ${name}`, contact_name: name, stage_id: stageId });
}
const stageOf = async (erp: Erp, id: number) =>
  ((await erp.read('crm.lead', [id], ['stage_id']))[0]!.stage_id as [number, string])[1];

async function quoteFor(leadId: number, name: string) {
  const r = await k.call('POST', '/sales/quotes', k.a.office, {
    customer: { name },
    lines: [window],
    lead_id: leadId,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body.lead_id).toBe(leadId);
  return r.body.id as string;
}

describe('the pipeline follows quotes', () => {
  it('moves the lead to Proposition when its quote is sent and to Won when it is accepted', async () => {
    const erp = k.a.erp.erp;
    const lead = await leadInStage(erp, 'Pat Pipe', stage.New!);
    const quote = await quoteFor(lead, 'Pat Pipe');
    expect((await k.call('POST', `/sales/quotes/${quote}/send`, k.a.office)).status).toBe(200);
    expect(await stageOf(erp, lead)).toBe('Proposition');
    expect((await k.call('POST', `/sales/quotes/${quote}/confirm`, k.a.office)).status).toBe(200);
    expect(await stageOf(erp, lead)).toBe('Won');
    // The inbox shows where each lead stands.
    const inbox = await k.call('GET', '/crm/leads', k.a.office);
    const row = inbox.body.items.find((l: { id: number }) => l.id === lead);
    expect(row.stage.name).toBe('Won');
  });

  it('never moves a lead backwards', async () => {
    const erp = k.a.erp.erp;
    const lead = await leadInStage(erp, 'Already Won', stage.Won!);
    const quote = await quoteFor(lead, 'Already Won');
    await k.call('POST', `/sales/quotes/${quote}/send`, k.a.office);
    expect(await stageOf(erp, lead)).toBe('Won');
  });

  it("follows the tenant's own rules: another stage, or none", async () => {
    const erp = k.a.erp.erp;
    const defaults = await k.call('GET', '/crm/pipeline', k.a.office);
    expect(defaults.body.quote_sent).toEqual({ stage_name: 'Proposition', stage_id: stage.Proposition, default: true });
    expect(defaults.body.quote_accepted).toMatchObject({ stage_name: 'Won', default: true });

    const bad = await k.call('PUT', '/crm/pipeline', k.a.owner, { quote_sent: 'Negotiation' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toContainEqual(expect.objectContaining({ field: 'quote_sent', rule: 'exists' }));
    expect((await k.call('PUT', '/crm/pipeline', k.a.office, { quote_sent: 'Qualified' })).status).toBe(403);

    const set = await k.call('PUT', '/crm/pipeline', k.a.owner, { quote_sent: 'Qualified', quote_accepted: null });
    expect(set.status).toBe(200);
    expect(set.body.quote_sent).toEqual({ stage_name: 'Qualified', stage_id: stage.Qualified, default: false });
    expect(set.body.quote_accepted).toEqual({ stage_name: null, stage_id: null, default: false });
    const lead = await leadInStage(erp, 'Rule Follower', stage.New!);
    const quote = await quoteFor(lead, 'Rule Follower');
    await k.call('POST', `/sales/quotes/${quote}/send`, k.a.office);
    expect(await stageOf(erp, lead)).toBe('Qualified');
    await k.call('POST', `/sales/quotes/${quote}/confirm`, k.a.office);
    expect(await stageOf(erp, lead)).toBe('Qualified');

    // B's rules are its own; back to the defaults.
    expect((await k.call('GET', '/crm/pipeline', k.b.office)).body.quote_sent.default).toBe(true);
    const reset = await k.call('PUT', '/crm/pipeline', k.a.owner, { quote_sent: 'default', quote_accepted: 'default' });
    expect(reset.body.quote_sent.default).toBe(true);
  });
});
