/** The quote as the API answers it: the platform's record with its window details, and the ERP order. */
import type { QuoteCustomer, QuoteView } from '@platform/contracts/quote.js';

import type { QuoteRow } from './quotes.repo.js';
import type { ErpOrder } from './sales-erp.js';

export type { QuoteView };

const cents = (x: number) => Math.round(x * 100) / 100;

/** The customer as the quote was given it (a quote for an existing ERP customer has none of its own). */
export function customerOf(row: QuoteRow): QuoteCustomer | null {
  const c = row.request.customer;
  if (!c) return null;
  return {
    name: c.name,
    email: c.email ?? null,
    phone: c.phone ?? null,
    street: c.street ?? null,
    city: c.city ?? null,
    zip: c.zip ?? null,
  };
}

/** `depositOf` turns the total into the deposit the tenant's rule asks (features/payments/deposit-amount.ts). */
export function quoteView(row: QuoteRow, order: ErpOrder | undefined, depositOf: (total: number) => number): QuoteView {
  const windows = row.request.lines;
  const lines = order
    ? order.lines.map((l, i) => {
        const w = windows[i];
        return {
          description: l.description,
          ...(w?.measurement_id ? { measurement_id: w.measurement_id } : {}),
          product_code: w?.product_code ?? null,
          room: w?.room ?? null,
          width_in: w?.width_in ?? null,
          drop_in: w?.drop_in ?? null,
          mount: w?.mount ?? null,
          colour: w?.colour ?? null,
          options: w?.option_lines ?? [],
          quantity: l.quantity,
          unit_price: l.unit_price,
          subtotal: l.subtotal,
        };
      })
    : windows.map((w) => ({
        description: `${w.product_name} – ${w.room}`,
        ...(w.measurement_id ? { measurement_id: w.measurement_id } : {}),
        product_code: w.product_code,
        room: w.room,
        width_in: w.width_in,
        drop_in: w.drop_in,
        mount: w.mount,
        colour: w.colour,
        options: w.option_lines,
        quantity: 1,
        unit_price: w.unit_price,
        subtotal: w.unit_price,
      }));
  const untaxed = order?.amount_untaxed ?? cents(windows.reduce((s, w) => s + w.unit_price, 0));
  const total = order?.amount_total ?? untaxed;
  return {
    id: row.id,
    sale_order_id: row.erp_order_id,
    name: order?.name ?? null,
    state: order?.state ?? (row.erp_order_id ? 'missing' : 'pending'),
    partner: order?.partner ?? null,
    customer: customerOf(row),
    lead_id: row.request.lead_id ?? null,
    lines,
    // Only a quote made from a measure job has these (other quotes answer as they always did).
    ...(row.request.measure_job_id
      ? { measure_job_id: row.request.measure_job_id, flagged: row.request.flagged ?? [] }
      : {}),
    amount_untaxed: untaxed,
    amount_tax: order?.amount_tax ?? 0,
    amount_total: total,
    deposit: depositOf(total),
    created_at: new Date(row.created_at).toISOString(),
  };
}
