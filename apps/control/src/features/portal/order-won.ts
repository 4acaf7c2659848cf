/**
 * The won order's conversion job (docs/reports.md): read from the order (its total and the click ids
 * it carries from its lead) when its quote is accepted, queued in the acceptance's transaction. Keyed
 * by `order-won:<tenant>:<order>`, so a retried or raced acceptance never queues a second one.
 */
import { orderWonEventId, type OrderWonPayload, TOPIC_ORDER_WON } from '@platform/contracts';
import { toMinor } from '@platform/contracts/money.js';
import type { Queryable } from '@platform/db';
import type { Erp } from '@platform/erp';
import { enqueue } from '@platform/outbox';

/** The tenant's currency (Settings → Company). */
export type CurrencyOf = (tenantId: string) => Promise<string>;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export async function orderWon(
  erp: Erp,
  currencyOf: CurrencyOf,
  tenantId: string,
  saleOrderId: number,
  wonAt: Date,
): Promise<OrderWonPayload> {
  const [[order], currency] = await Promise.all([
    erp.read('sale.order', [saleOrderId], ['amount_total', 'x_gclid', 'x_gbraid', 'x_wbraid']),
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
