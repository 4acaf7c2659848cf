/**
 * The calls integrators make beyond CRUD (read_group, default_get, copy, name_create, ir.model
 * introspection, partner addresses, invoicing a sales order through its wizard), each run twice
 * through the platform's Odoo JSON-RPC adapter: against the recorded Odoo 15 answer
 * (fixtures/odoo15, replayed by the fixture server) and against the embedded ERP on data built to
 * mirror the recording. The embedded answer must have the recorded answer's shape: the same keys,
 * the same value types (false where Odoo answers false, [id, name] where it answers a many2one),
 * the same number of groups and domain items; ids, names and amounts may differ.
 */
import type { Erp } from '@platform/erp';
import {
  loadOdooFixtures,
  type OdooFixture,
  type OdooFixtureServer,
  startOdooFixtureServer,
} from '@platform/erp/contract/odoo-fixture.server.js';
import { createOdooErp } from '@platform/erp/odoo/odoo-erp.adapter.js';
import { AppError } from '@platform/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type EmbeddedContractErp, startEmbeddedErp } from './embedded-server.js';

type Call = [model: string, method: string, args: unknown[], kwargs: Record<string, unknown>];
interface Case {
  fixture: string;
  /** The same call on the embedded ERP, on records made to mirror the recording. */
  embedded: (erp: Erp) => Promise<Call>;
}

/** The structure of a JSON value: types in place of values, object keys sorted, arrays item by item. */
export function shape(v: unknown): unknown {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return v.map(shape);
  if (typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  return typeof v;
}

const marker = `c15${Date.now().toString(36)}`;
const recordedCall = (fx: OdooFixture): Call => {
  const args = (fx.request.body?.params as { args: unknown[] }).args;
  return [args[3] as string, args[4] as string, args[5] as unknown[], args[6] as Record<string, unknown>];
};
const recordedAnswer = (fx: OdooFixture) =>
  fx.response.body as { result?: unknown; error?: { data: { name: string } } };

async function stage(erp: Erp, name: string): Promise<number> {
  const [id] = await erp.search('crm.stage', [['name', '=', name]], { limit: 1 });
  return id!;
}

const STOCK_QUANT_FIELDS = [
  'product_id',
  'location_id',
  'quantity',
  'reserved_quantity',
  'available_quantity',
  'lot_id',
  'package_id',
  'owner_id',
  'company_id',
];

/** A receipt of `qty` of `product` into WH/Stock, confirmed, with its quantity done (ready to validate). */
async function receipt(erp: Erp, product: number, qty: number): Promise<number> {
  const [incoming] = await erp.search('stock.picking.type', [['code', '=', 'incoming']], { limit: 1 });
  const id = await erp.create('stock.picking', {
    picking_type_id: incoming,
    move_ids_without_package: [[0, 0, { product_id: product, product_uom_qty: qty }]],
  });
  await erp.call('stock.picking', 'action_confirm', [[id]]);
  const moves = await erp.search('stock.move', [['picking_id', '=', id]]);
  await erp.write('stock.move', moves, { quantity_done: qty });
  return id;
}

const CASES: Case[] = [
  {
    fixture: 'object-read-res-partner-address',
    async embedded(erp) {
      const [co] = await erp.search('res.country.state', [
        ['code', '=', 'CO'],
        ['country_id.code', '=', 'US'],
      ]);
      const id = await erp.create('res.partner', {
        name: `${marker} Addr`,
        street: '1200 Market St',
        street2: 'Suite 400',
        city: 'Denver',
        zip: '80202',
        state_id: co,
        customer_rank: 1,
      });
      return [
        'res.partner',
        'read',
        [[id]],
        { fields: ['street', 'street2', 'city', 'zip', 'state_id', 'country_id', 'customer_rank'] },
      ];
    },
  },
  {
    fixture: 'object-read-group-crm-lead-stage',
    async embedded(erp) {
      const [fresh, qualified] = [await stage(erp, 'New'), await stage(erp, 'Qualified')];
      const lead = (n: string, stageId: number, revenue: number, deadline: string | false) =>
        erp.create('crm.lead', {
          name: `${marker} Estimate ${n}`,
          stage_id: stageId,
          expected_revenue: revenue,
          date_deadline: deadline,
        });
      await lead('a', fresh, 1000, '2026-01-10');
      await lead('b', fresh, 500, '2026-01-20');
      await lead('c', qualified, 800, false);
      return [
        'crm.lead',
        'read_group',
        [[['name', 'like', `${marker} Estimate`]], ['expected_revenue:sum'], ['stage_id']],
        {},
      ];
    },
  },
  {
    fixture: 'object-read-group-crm-lead-month',
    embedded: async () => [
      'crm.lead',
      'read_group',
      [[['name', 'like', `${marker} Estimate`]], ['expected_revenue'], ['date_deadline:month']],
      { lazy: false },
    ],
  },
  {
    fixture: 'object-search-read-ir-model',
    embedded: async () => [
      'ir.model',
      'search_read',
      [[['model', 'in', ['crm.lead', 'res.partner']]]],
      { fields: ['model', 'name'] },
    ],
  },
  {
    fixture: 'object-default-get-crm-lead',
    embedded: async () => ['crm.lead', 'default_get', [['type', 'priority', 'user_id']], {}],
  },
  {
    fixture: 'object-copy-res-partner',
    embedded: async (erp) => [
      'res.partner',
      'copy',
      [[await erp.create('res.partner', { name: `${marker} Twin` })]],
      {},
    ],
  },
  {
    fixture: 'object-name-create-crm-tag',
    embedded: async () => ['crm.tag', 'name_create', [`${marker} Motorised`], {}],
  },
  {
    fixture: 'object-create-sale-advance-payment-inv',
    async embedded(erp) {
      const partner = await erp.create('res.partner', { name: `${marker} Buyer` });
      const so = await erp.create('sale.order', {
        partner_id: partner,
        order_line: [[0, 0, { name: 'Shutters', price_unit: 900, product_uom_qty: 1 }]],
      });
      await erp.call('sale.order', 'action_confirm', [[so]]);
      orderId = so;
      return [
        'sale.advance.payment.inv',
        'create',
        [{ advance_payment_method: 'percentage', amount: 40 }],
        { context: { active_model: 'sale.order', active_ids: [so] } },
      ];
    },
  },
  {
    fixture: 'object-create-invoices-sale-advance-payment-inv',
    embedded: async () => ['sale.advance.payment.inv', 'create_invoices', [[wizardId]], {}],
  },
  {
    fixture: 'object-read-sale-order-invoicing',
    embedded: async () => [
      'sale.order',
      'read',
      [[orderId]],
      { fields: ['invoice_status', 'invoice_count', 'invoice_ids'] },
    ],
  },
  {
    fixture: 'object-search-read-stock-quant',
    async embedded(erp) {
      const product = await erp.create('product.product', { name: `${marker} Bracket`, type: 'product' });
      pickingId = await receipt(erp, product, 14);
      await erp.call('stock.picking', 'button_validate', [[pickingId]]);
      const [out] = await erp.search('stock.picking.type', [['code', '=', 'outgoing']], { limit: 1 });
      const delivery = await erp.create('stock.picking', {
        picking_type_id: out,
        move_ids_without_package: [[0, 0, { product_id: product, product_uom_qty: 2 }]],
      });
      await erp.call('stock.picking', 'action_assign', [[delivery]]);
      pickingId = await receipt(erp, product, 3);
      return [
        'stock.quant',
        'search_read',
        [
          [
            ['product_id', '=', product],
            ['location_id.usage', '=', 'internal'],
          ],
        ],
        { fields: STOCK_QUANT_FIELDS },
      ];
    },
  },
  {
    fixture: 'object-button-validate-stock-picking',
    embedded: async () => ['stock.picking', 'button_validate', [[pickingId]], {}],
  },
  {
    fixture: 'object-read-stock-picking-done',
    embedded: async () => [
      'stock.picking',
      'read',
      [[pickingId]],
      {
        fields: [
          'name',
          'state',
          'date_done',
          'picking_type_code',
          'location_id',
          'location_dest_id',
          'move_ids_without_package',
        ],
      },
    ],
  },
  {
    fixture: 'error-value-error-read-group-field',
    embedded: async () => ['crm.lead', 'read_group', [[], ['nope'], ['stage_id']], {}],
  },
];
let orderId = 0;
let wizardId = 0;
let pickingId = 0;

async function outcome(erp: Erp, [model, method, args, kwargs]: Call): Promise<{ result?: unknown; error?: string }> {
  try {
    return { result: await erp.call(model, method, args, kwargs) };
  } catch (e) {
    if (e instanceof AppError && e.code === 'ERP_REJECTED') return { error: String(e.details?.name) };
    throw e;
  }
}

describe('Odoo 15 calls: recorded answers and the embedded ERP', () => {
  let fixtures: Map<string, OdooFixture>;
  let server: OdooFixtureServer;
  let odoo: Erp;
  let embedded: EmbeddedContractErp;

  beforeAll(async () => {
    fixtures = await loadOdooFixtures();
    server = await startOdooFixtureServer(fixtures.values());
    odoo = createOdooErp({
      url: server.url,
      db: 'odoo15',
      login: 'api-bot@example.com',
      secret: '3f1c0e5b8a9d47e2b6c1f0a4d8e7b2c95a1f3e6d',
    });
    embedded = await startEmbeddedErp('calls');
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await embedded?.teardown();
  });

  // In order: the wizard's create comes before its create_invoices, which comes before reading the order.
  for (const c of CASES) {
    it(`${c.fixture}: the adapter decodes the recording and the embedded ERP answers the same shape`, async () => {
      const fx = fixtures.get(c.fixture);
      if (!fx) throw new Error(`no fixture ${c.fixture}`);
      const recorded = recordedAnswer(fx);
      const fromOdoo = await outcome(odoo, recordedCall(fx));
      expect(server.unmatched).toEqual([]);
      if (recorded.error) expect(fromOdoo).toEqual({ error: recorded.error.data.name });
      else expect(fromOdoo).toEqual({ result: recorded.result });

      const fromEmbedded = await outcome(embedded.erp, await c.embedded(embedded.erp));
      if (c.fixture === 'object-create-sale-advance-payment-inv') wizardId = fromEmbedded.result as number;
      if (recorded.error) expect(fromEmbedded).toEqual({ error: recorded.error.data.name });
      else expect(shape(fromEmbedded.result)).toEqual(shape(recorded.result));
    });
  }

  it('answers domains Odoo refuses with the ValueError envelope, never an internal error', async () => {
    for (const domain of [[['name', 'child_of', 'x']], [['name', 'parent_of', 'x']], [['id', '=', 1e308]]]) {
      expect(await outcome(embedded.erp, ['res.partner', 'search_read', [domain], { fields: ['name'] }])).toEqual({
        error: 'builtins.ValueError',
      });
    }
  });

  it('exists keeps the ids that still exist', async () => {
    const id = await embedded.erp.create('crm.tag', { name: `${marker} gone` });
    const kept = await embedded.erp.create('crm.tag', { name: `${marker} kept` });
    await embedded.erp.unlink('crm.tag', [id]);
    expect(await embedded.erp.call('crm.tag', 'exists', [[kept, id]])).toEqual([kept]);
  });
});
