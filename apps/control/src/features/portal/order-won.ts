/**
 * The won order's conversion job (docs/reports.md): read from the order (its total and the click ids
 * it carries from its lead) when its quote is accepted, queued in the acceptance's transaction. Keyed
 * by `order-won:<tenant>:<order>`, so a retried or raced acceptance never queues a second one.
 */
import { fbcOf, orderWonEventId, type OrderWonPayload, TOPIC_ORDER_WON } from '@platform/contracts';
import { toMinor } from '@platform/contracts/money.js';
import type { Queryable } from '@platform/db';
import type { Erp } from '@platform/erp';
import { enqueue } from '@platform/outbox';

/** The tenant's currency (Settings → Company). */
export type CurrencyOf = (tenantId: string) => Promise<string>;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const idOf = (v: unknown): number | undefined => (Array.isArray(v) ? Number(v[0]) : undefined);
/** An ERP datetime (`YYYY-MM-DD HH:MM:SS`, UTC) as a Date. */
const erpTime = (v: unknown): Date | undefined => {
  const d = typeof v === 'string' && v ? new Date(`${v.replace(' ', 'T').replace(/Z?$/, 'Z')}`) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d : undefined;
};

/** When the fbclid was first seen: its lead's creation, else the order's. */
async function firstSeen(erp: Erp, order: Record<string, unknown>): Promise<Date> {
  const lead = idOf(order.opportunity_id);
  const [l] = lead ? await erp.read('crm.lead', [lead], ['create_date']) : [];
  return erpTime(l?.create_date) ?? erpTime(order.create_date) ?? new Date();
}

export async function orderWon(
  erp: Erp,
  currencyOf: CurrencyOf,
  tenantId: string,
  saleOrderId: number,
  wonAt: Date,
): Promise<OrderWonPayload> {
  const [[order], currency] = await Promise.all([
    erp.read(
      'sale.order',
      [saleOrderId],
      [
        ...['amount_total', 'x_gclid', 'x_gbraid', 'x_wbraid', 'x_fbclid'],
        ...['partner_id', 'opportunity_id', 'create_date'],
      ],
    ),
    currencyOf(tenantId),
  ]);
  const p: OrderWonPayload = {
    eventId: orderWonEventId(tenantId, saleOrderId),
    saleOrderId,
    wonAt: wonAt.toISOString(),
    valueMinor: toMinor(Number(order?.amount_total ?? 0), currency),
    currency,
  };
  for (const k of ['gclid', 'gbraid', 'wbraid'] as const) {
    const v = text(order?.[`x_${k}`]);
    if (v) p[k] = v;
  }
  const fbclid = text(order?.x_fbclid);
  if (fbclid) p.fbc = fbcOf(fbclid, await firstSeen(erp, order!));
  const partner = idOf(order?.partner_id);
  const [c] = partner ? await erp.read('res.partner', [partner], ['email', 'phone']) : [];
  if (text(c?.email)) p.email = text(c?.email);
  if (text(c?.phone)) p.phone = text(c?.phone);
  return p;
}

export function enqueueOrderWon(tx: Queryable, tenantId: string, p: OrderWonPayload): Promise<number | null> {
  return enqueue(tx, {
    tenantId,
    topic: TOPIC_ORDER_WON,
    aggregateId: String(p.saleOrderId),
    dedupeKey: p.eventId,
    payload: p,
  });
}
