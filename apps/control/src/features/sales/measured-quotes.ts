/**
 * A measure job's one draft quote ("Send to office", docs/control-plane.md "Measuring visits"). The
 * quote row's idempotency key is the job's (`measure-job:<id>`), so however often the measurer sends,
 * and however two sends race, the job has one quote; its ERP order is made once under the quote's
 * lease (quote-order.ts). A later send brings the same draft up to date (the request, the order's
 * lines and its note of flagged windows) while the order is still a draft; once sent or confirmed it
 * is the office's and the send is refused.
 */
import { type Db, withTenant } from '@platform/db';
import type { Erp } from '@platform/erp';
import { AppError, isAppError, newId } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { inches } from './pricing.js';
import { makeQuoteOrder } from './quote-order.js';
import * as repo from './quotes.repo.js';
import { orderLines } from './sales-erp.js';

export interface MeasuredDraft {
  jobId: string;
  partnerId: number;
  lines: repo.QuoteRequest['lines'];
  flagged: repo.FlaggedWindow[];
}

export const measureKey = (jobId: string) => `measure-job:${jobId}`;

/** The order's note: the windows the office must resolve (the ERP's users see them too). */
export function flaggedNote(flagged: repo.FlaggedWindow[]): string | undefined {
  if (!flagged.length) return undefined;
  return [
    `Measured but not priced (${flagged.length}): resolve before sending.`,
    ...flagged.map(
      (f) =>
        `- ${f.room}: ${f.product_code}, ${inches(f.width_in)}" W × ${inches(f.drop_in)}" H, ${f.mount} mount. ${f.reasons.join(' ')}`,
    ),
  ].join('\n');
}

function requestOf(d: MeasuredDraft): repo.QuoteRequest {
  const note = flaggedNote(d.flagged);
  return {
    partner_id: d.partnerId,
    measure_job_id: d.jobId,
    lines: d.lines,
    flagged: d.flagged,
    ...(note ? { note } : {}),
  };
}

const sentRefusal = (quoteId: string, state: string) =>
  new AppError(
    'MEASURE_QUOTE_SENT',
    `The quote made from this visit is ${state === 'sent' ? 'sent to the customer' : state}: the office changes it now.`,
    { details: { quote_id: quoteId, state } },
  );

async function orderState(erp: Erp, orderId: number): Promise<string> {
  return String((await erp.read('sale.order', [orderId], ['state']))[0]?.state ?? 'missing');
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The quote's ERP order: made now under the quote's lease, or, while another send holds the lease,
 * the one it makes (waited for a few seconds, so two first sends racing both answer the one quote).
 */
async function orderOf(d: { db: Db; audit: AuditLog; erp: Erp }, row: repo.QuoteRow): Promise<number> {
  for (let tries = 0; ; tries++) {
    try {
      return await makeQuoteOrder(d.db, d.audit, d.erp, row, 'keep');
    } catch (e) {
      if (!isAppError(e) || e.code !== 'IDEMPOTENCY_REQUEST_IN_PROGRESS' || tries >= 20) throw e;
      await pause(250);
    }
  }
}

/** Makes the job's draft quote, or updates it; answers the quote's id and whether it was there already. */
export async function draftFromMeasurements(
  d: { db: Db; audit: AuditLog; erp: Erp },
  p: Principal,
  draft: MeasuredDraft,
): Promise<{ quoteId: string; updated: boolean }> {
  const key = measureKey(draft.jobId);
  const request = requestOf(draft);
  const scoped = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(d.db, p.tenantId, fn);
  const earlier = await scoped((tx) => repo.quoteByKey(tx, p.tenantId, key));
  if (earlier?.erp_order_id) {
    const state = await orderState(d.erp, earlier.erp_order_id);
    if (state !== 'draft') throw sentRefusal(earlier.id, state);
  }
  const { row, fresh } = await scoped(async (tx) => {
    if (earlier) {
      await repo.setRequest(tx, p.tenantId, earlier.id, request);
      return { row: { ...earlier, request }, fresh: false };
    }
    const made = { id: newId(), tenant_id: p.tenantId, idempotency_key: key, fingerprint: key, request };
    if (await repo.insertQuote(tx, { ...made, created_by: p.userId }))
      return { row: { ...made, created_by: p.userId, erp_order_id: null, created_at: new Date() }, fresh: true };
    // Another send made it first: this one brings it up to date.
    const other = (await repo.quoteByKey(tx, p.tenantId, key))!;
    await repo.setRequest(tx, p.tenantId, other.id, request);
    return { row: { ...other, request }, fresh: false };
  });
  const orderId = row.erp_order_id ?? (await orderOf(d, row));
  // An order made by another send (or before this one) gets this send's windows: the last send stands.
  if (!fresh)
    await d.erp.write('sale.order', [orderId], {
      order_line: [[5, 0, 0], ...(await orderLines(d.erp, request))],
      note: request.note ?? false,
    });
  await scoped((tx) =>
    d.audit.record(tx, {
      tenantId: p.tenantId,
      actor: { kind: 'user', id: p.userId },
      action: 'sales.quote.measured',
      target: { type: 'quote', id: row.id },
      detail: { job_id: draft.jobId, priced: draft.lines.length, flagged: draft.flagged.length },
    }),
  );
  return { quoteId: row.id, updated: !fresh };
}
