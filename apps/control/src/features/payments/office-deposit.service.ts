/**
 * The office records a deposit the customer paid by cash, check or bank transfer (docs/payments.md,
 * "The office's deposit"): the quote's deposit row paid with that method, and in the same
 * transaction the same ERP job a card deposit gets (the order confirmed, the down-payment invoice
 * posted and paid on the cash or bank journal). An Idempotency-Key replays the first answer.
 */
import { toMinor } from '@platform/contracts/money.js';
import { type Db, withTenant } from '@platform/db';
import { findAnswer, fingerprint, replayStored, storeAnswer } from '@platform/intake';
import { AppError, type WriteAnswer } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { QuotesService } from '../sales/quotes.service.js';
import { type DepositMethod, recordOfficeDeposit } from './deposit.repo.js';
import { enqueueDepositErp } from './deposit-erp.job.js';

export interface OfficeDepositBody {
  method: Exclude<DepositMethod, 'card'>;
  amount_minor: number;
  reference?: string | undefined;
}

export interface OfficeDepositAnswer {
  quote_id: string;
  status: 'paid';
  method: OfficeDepositBody['method'];
  amount_minor: number;
  currency: string;
  /** The ERP side (confirm, down-payment invoice, payment) follows in the background. */
  erp: 'pending';
}

class KeyTaken extends Error {}

export class OfficeDepositService {
  constructor(
    private readonly db: Db,
    private readonly d: {
      quotes: Pick<QuotesService, 'get'>;
      audit: AuditLog;
      currency(tenantId: string): Promise<string>;
    },
  ) {}

  async record(
    p: Principal,
    quoteId: string,
    body: OfficeDepositBody,
    key: string | undefined,
    ip?: string,
  ): Promise<WriteAnswer<OfficeDepositAnswer>> {
    const tenantId = p.tenantId;
    const route = `payments:office-deposit:${quoteId}`;
    const fp = fingerprint('office-deposit', body);
    const replay = async () => {
      const stored = key && (await withTenant(this.db, tenantId, (tx) => findAnswer(tx, tenantId, route, key)));
      return stored ? replayStored<OfficeDepositAnswer>(stored, fp) : undefined;
    };
    const earlier = await replay();
    if (earlier) return earlier;
    // Another tenant's quote is this tenant's 404 (QuotesService.get looks in the principal's tenant).
    const [q, currency] = await Promise.all([this.d.quotes.get(tenantId, quoteId), this.d.currency(tenantId)]);
    if (!q.sale_order_id || q.state === 'cancel')
      throw new AppError('QUOTE_STATE_CONFLICT', 'This quote cannot take a deposit.', { details: { state: q.state } });
    if (body.amount_minor > toMinor(q.amount_total, currency))
      throw new AppError('VALIDATION_FAILED', 'The deposit is more than the quote.', {
        fieldIssues: [{ field: 'amount_minor', rule: 'max', message: 'must be at most the quote total' }],
      });
    const answer: OfficeDepositAnswer = {
      quote_id: quoteId,
      status: 'paid',
      method: body.method,
      amount_minor: body.amount_minor,
      currency,
      erp: 'pending',
    };
    try {
      await withTenant(this.db, tenantId, async (tx) => {
        // The key first: a racing request with the same key waits here, then replays this answer.
        if (
          key &&
          !(await storeAnswer(tx, tenantId, route, key, { fingerprint: fp, outcome: 'created', response: answer }))
        )
          throw new KeyTaken();
        const paid = await recordOfficeDeposit(tx, {
          tenantId,
          quoteId,
          method: body.method,
          amountMinor: body.amount_minor,
          currency,
          reference: body.reference ?? null,
        });
        if (!paid)
          throw new AppError('DEPOSIT_NOT_DUE', 'The deposit of this quote is already paid.', {
            details: { reason: 'paid' },
          });
        await enqueueDepositErp(tx, tenantId, quoteId);
        await this.d.audit.record(tx, {
          tenantId,
          actor: { kind: 'user', id: p.userId },
          action: 'payments.deposit.record',
          target: { type: 'quote', id: quoteId },
          ...(ip ? { ip } : {}),
          detail: { method: body.method, amount_minor: body.amount_minor, currency },
        });
      });
    } catch (e) {
      if (!(e instanceof KeyTaken)) throw e;
      return (await replay())!;
    }
    return { outcome: 'created', body: answer, replayed: false };
  }
}
