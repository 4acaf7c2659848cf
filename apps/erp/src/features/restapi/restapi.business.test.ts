/**
 * REST CRUD and business methods on sale orders, invoices and FSM orders with an API key. These
 * models (and their actions) come with the embedded ERP's business area: each block is skipped,
 * saying why, while the model or the method is not in the ERP yet.
 */
import { OdooError } from '@platform/erp-embedded';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';

import {
  ADMIN_PASSWORD,
  apiKey,
  ERP_DB,
  type RestHarness,
  startRestHarness,
} from '../../../test/support/restapi-harness.js';

const MODELS = ['sale.order', 'account.move', 'fsm.order'] as const;
let h: RestHarness;
let key: string;

beforeAll(async () => {
  h = await startRestHarness();
  const scopes = MODELS.flatMap((m) => [`read:${m}`, `write:${m}`]);
  ({ key } = await apiKey(
    h,
    [
      ...scopes,
      'read:res.partner write:res.partner',
      'method:sale.order.action_confirm',
      'method:account.move.action_post',
      'method:fsm.order.action_complete',
    ].join(' '),
  ));
});
afterAll(async () => h?.close());

const rest = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
  const res = await h.app.inject({
    method,
    url: `/restapi/1.0/object/${url}`,
    headers: { 'x-api-key': key },
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.body ? (res.json() as Record<string, any>) : undefined };
};

/** Skips the test when the ERP does not implement `method` on `model` yet (Odoo's AttributeError). */
async function needsMethod(ctx: TestContext, model: string, method: string): Promise<void> {
  try {
    await h.embedded.executeKw(ERP_DB, 2, ADMIN_PASSWORD, model, method, [[2_000_000_000]], {});
  } catch (e) {
    if (e instanceof OdooError && e.odooName === 'builtins.AttributeError')
      ctx.skip(`${model}.${method} is not in the embedded ERP yet`);
  }
}

async function partner(): Promise<number> {
  return (await rest('POST', 'res.partner', { name: `Customer ${Math.random().toString(36).slice(2, 8)}` })).body!
    .id as number;
}

/** Create, read, list, write; then delete a second (draft) record. */
async function crud(
  model: string,
  values: () => Promise<Record<string, unknown>>,
  change: Record<string, unknown>,
): Promise<number> {
  const created = await rest('POST', model, await values());
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body!.id as number;
  expect((await rest('GET', `${model}/${id}`)).body).toMatchObject({ id });
  const list = await rest('GET', `${model}?domain=${encodeURIComponent(JSON.stringify([['id', '=', id]]))}`);
  expect(list.body).toMatchObject({ total: 1, records: [{ id }] });
  expect((await rest('PUT', `${model}/${id}`, change)).body).toMatchObject({ id, ...change });
  const other = (await rest('POST', model, await values())).body!.id as number;
  expect((await rest('DELETE', `${model}/${other}`)).status).toBe(204);
  expect((await rest('GET', `${model}/${other}`)).status).toBe(404);
  return id;
}

describe('sale.order', () => {
  it('list/read/create/write/unlink, then action_confirm', async (ctx) => {
    const id = await crud('sale.order', async () => ({ partner_id: await partner() }), { client_order_ref: 'PO-778' });
    await needsMethod(ctx, 'sale.order', 'action_confirm');
    const res = await rest('POST', `sale.order/${id}/action_confirm`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await rest('GET', `sale.order/${id}?fields=state`)).body).toEqual({ id, state: 'sale' });
  });
});

describe('account.move', () => {
  it('list/read/create/write/unlink of a customer invoice, then action_post', async (ctx) => {
    const [journal] = await h.erp.search('account.journal', [['type', '=', 'sale']], { limit: 1 });
    const values = async () => ({
      move_type: 'out_invoice',
      partner_id: await partner(),
      ...(journal ? { journal_id: journal } : {}),
      invoice_line_ids: [[0, 0, { name: 'Roller blind', quantity: 2, price_unit: 120 }]],
    });
    const id = await crud('account.move', values, { ref: 'INV-REF-1' });
    await needsMethod(ctx, 'account.move', 'action_post');
    const res = await rest('POST', `account.move/${id}/action_post`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await rest('GET', `account.move/${id}?fields=state`)).body).toEqual({ id, state: 'posted' });
  });
});

describe('fsm.order', () => {
  it('list/read/create/write/unlink, then action_complete', async (ctx) => {
    const team = await h.erp.create('fsm.team', { name: 'Installers' });
    const location = await h.erp.create('fsm.location', { name: '12 Elm Street', partner_id: await partner() });
    const id = await crud(
      'fsm.order',
      async () => ({ team_id: team, location_id: location, description: 'Fit 3 shutters' }),
      { description: 'Fit 4 shutters' },
    );
    await needsMethod(ctx, 'fsm.order', 'action_complete');
    const res = await rest('POST', `fsm.order/${id}/action_complete`, { kwargs: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await rest('GET', `fsm.order/${id}?fields=is_closed`)).body).toEqual({ id, is_closed: true });
  });
});
