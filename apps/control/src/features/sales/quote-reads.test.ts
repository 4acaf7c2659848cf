/**
 * Reads never write: opening a quote (office or portal) whose ERP order was never made leaves the
 * platform database as it was, even when the ERP refuses the order. Making the order is the explicit
 * step of sending (and confirming): its refusal reaches the office as a problem and keeps the quote.
 */
import type { Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';
import { describe, expect, it } from 'vitest';

import { useCrmSalesKit } from '../../testing/crm-sales-kit.js';

const kit = useCrmSalesKit();

/** The tenant's ERP, except that it has no order of any platform quote and refuses to make one. */
const refusingOrders = (erp: Erp): Erp =>
  new Proxy(erp, {
    get(target, name) {
      if (name === 'create')
        return (model: string, ...rest: Parameters<Erp['create']> extends [string, ...infer R] ? R : never) => {
          if (model === 'sale.order') throw new AppError('ERP_REJECTED', 'The ERP refused the order.');
          return target.create(model, ...rest);
        };
      if (name === 'search')
        return (model: string, domain: Parameters<Erp['search']>[1], opts?: Parameters<Erp['search']>[2]) =>
          model === 'sale.order' && JSON.stringify(domain).includes('origin')
            ? Promise.resolve([])
            : target.search(model, domain, opts);
      const v = Reflect.get(target, name) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });

const window = {
  product_code: 'roller-shade',
  room: 'Hall',
  width_in: 30,
  drop_in: 40,
  mount: 'inside',
  colour: 'Ash',
};

/**
 * Every platform table's rows (the ERP's own tables live elsewhere), apart from what records a
 * customer's view by design: audit entries and the link's first opening (quote follow-ups read it).
 */
async function platformRows(): Promise<Record<string, string>> {
  const db = kit().kit.t.db;
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'audit_log' ORDER BY table_name`,
  );
  const out: Record<string, string> = {};
  for (const { table_name: t } of tables.rows) {
    const r = await db.query<{ h: string | null }>(
      `SELECT md5(string_agg(r::text, '|' ORDER BY r::text)) AS h
         FROM (SELECT to_jsonb(x) - 'first_opened_at' AS r FROM "${t}" x) v`,
    );
    out[t] = r.rows[0]!.h ?? 'empty';
  }
  return out;
}

const auditActions = async () =>
  (
    await kit().kit.t.db.query<{ action: string }>(
      'SELECT action FROM audit_log WHERE tenant_id = $1 ORDER BY at, id',
      [kit().a.id],
    )
  ).rows.map((r) => r.action);

/** A sent quote whose ERP order is then lost to the platform (its creation never got to record it). */
async function sentQuoteWithoutOrder(): Promise<{ id: string; token: string }> {
  const q = await kit().call('POST', '/sales/quotes', kit().a.office, {
    customer: { name: 'Ola Reads' },
    lines: [window],
  });
  const sent = await kit().call('POST', `/sales/quotes/${q.body.id}/send`, kit().a.office);
  await kit().kit.t.db.query('UPDATE sales_quotes SET erp_order_id = NULL WHERE id = $1', [q.body.id]);
  return { id: q.body.id, token: sent.body.token };
}

describe('reading a quote whose ERP order is not made, while the ERP refuses it', () => {
  it('leaves the database unchanged on every quote and portal GET, and answers the quote as pending', async () => {
    const q = await sentQuoteWithoutOrder();
    kit().route(kit().a.id, refusingOrders(kit().a.erp.erp));
    try {
      const before = await platformRows();
      const audited = await auditActions();
      const one = await kit().call('GET', `/sales/quotes/${q.id}`, kit().a.office);
      const list = await kit().call('GET', '/sales/quotes', kit().a.office);
      for (const url of ['/sales/orders', '/sales/taxes'])
        expect((await kit().call('GET', url, kit().a.office)).status, url).toBe(200);
      const portal = await kit().call('GET', `/portal/quotes/${q.token}`, undefined, undefined, {
        'x-tenant-id': kit().a.id,
      });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: q.id, state: 'pending', sale_order_id: null });
      expect(list.body.items.find((i: { id: string }) => i.id === q.id)).toMatchObject({ state: 'pending' });
      expect(portal.status).toBe(200);
      expect(portal.body.quote.state).toBe('pending');
      expect(await platformRows()).toEqual(before);
      // The portal's view is audited and its first opening recorded by design; nothing else was.
      expect(await auditActions()).toEqual([...audited, 'portal.quote.view']);
      const opened = await kit().kit.t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM portal_tokens WHERE first_opened_at IS NOT NULL',
      );
      expect(opened.rows[0]!.n).toBe(1);
    } finally {
      kit().route(kit().a.id, kit().a.erp.erp);
    }
  });

  it('sending it makes the order explicitly: a refusal is a 409 naming the state, and the quote stays', async () => {
    const q = await sentQuoteWithoutOrder();
    kit().route(kit().a.id, refusingOrders(kit().a.erp.erp));
    try {
      const r = await kit().call('POST', `/sales/quotes/${q.id}/send`, kit().a.office);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: 'QUOTE_STATE_CONFLICT', state: 'pending' });
      expect((await kit().call('GET', `/sales/quotes/${q.id}`, kit().a.office)).body.state).toBe('pending');
    } finally {
      kit().route(kit().a.id, kit().a.erp.erp);
    }
    // With the ERP willing again, sending finds (or makes) the order and records it.
    const again = await kit().call('POST', `/sales/quotes/${q.id}/send`, kit().a.office);
    expect(again.status).toBe(200);
    expect((await kit().call('GET', `/sales/quotes/${q.id}`, kit().a.office)).body.sale_order_id).toEqual(
      expect.any(Number),
    );
  });
});
