/**
 * What the ERP → provider money senders share (accounting-money-out.service.ts for payments and
 * refunds, accounting-credit-notes-out.ts for credit notes): results, the markers that tell our money
 * from the provider's, and the lease and refusal handling.
 */
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import type { AccountingApi } from '@platform/providers';

import type { AccountingAttention } from './accounting-attention.js';
import type { AccountingCalls } from './accounting-calls.js';
import type { AccountingContacts } from './accounting-contacts.js';
import * as repo from './accounting-money-out.repo.js';

export type MoneyOutResult =
  | { pushed: true; kind: repo.MoneyOutRow['kind']; providerId: string; allocated?: number }
  | {
      pushed: false;
      reason: 'not_money' | 'not_posted' | 'from_provider' | 'no_invoice' | 'not_configured' | 'already_sent';
    }
  | { pushed: false; reason: 'needs_attention'; detail: string };

/** How long a record waits for its invoice (or credit note) to reach the provider before looking again. */
export const WAIT_FOR_INVOICE_MS = 30_000;
/** Refs the inbound sync gives what it registers in the ERP for the provider's own money. */
export const fromProvider = (ref: unknown): boolean =>
  typeof ref === 'string' && /^Accounting (payment|prepayment|overpayment|credit note) /.test(ref);
/** The Reference of a payment we send: the ERP's number and a marker naming the ERP record. */
export const erpMoneyReference = (kind: 'payment' | 'refund', id: number, name: unknown): string =>
  `${typeof name === 'string' && name !== '/' ? `${name} ` : ''}[erp-${kind}-${id}]`;
/** A payment at the provider that we sent (the inbound sync must not bring it back). */
export const isErpMoneyReference = (ref: string): boolean => /\[erp-(payment|refund)-\d+\]$/.test(ref);

export const today = () => new Date().toISOString().slice(0, 10);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const ids = (v: unknown): number[] =>
  Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
export const skip = (reason: Exclude<MoneyOutResult, { pushed: true }>['reason']) =>
  ({ pushed: false, reason }) as MoneyOutResult;

/** The provider calls, the platform rows and the lease every sender uses. */
export abstract class MoneyOutBase {
  constructor(
    protected readonly db: Db,
    protected readonly api: AccountingApi,
    protected readonly calls: AccountingCalls,
    protected readonly contacts: AccountingContacts,
    protected readonly attention: AccountingAttention,
    protected readonly leaseMs = 5 * 60_000,
  ) {}

  protected async refused(
    tenantId: string,
    erp: Erp,
    erpDb: string,
    invoiceId: number,
    detail: string,
  ): Promise<MoneyOutResult> {
    await this.attention.flag(tenantId, erp, erpDb, invoiceId, 'provider_refused', detail);
    return { pushed: false, reason: 'needs_attention', detail };
  }

  /** Runs provider work of a leased row; on a failure gives the lease back so a retry need not wait. */
  protected async underLease<T>(tenantId: string, key: repo.MoneyOutKey, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      await repo.releaseMoneyOutLease(this.db, tenantId, key).catch(() => undefined);
      throw e;
    }
  }
}
