/**
 * Money made in the ERP → the accounting provider, so its AmountDue follows the ERP's residual:
 * - a posted customer payment reconciled with a synced invoice becomes a payment on that invoice
 *   (Xero `PUT /Payments`, on the connection's Payment Account Code);
 * - a posted credit note (`out_refund`) reversing a synced invoice becomes an AUTHORISED credit note
 *   (`PUT /CreditNotes`), allocated to the invoice for as much as is still due there;
 * - a posted outbound customer payment reconciled with such a credit note (money given back) becomes
 *   a refund paid from the credit note (`PUT /Payments` with the CreditNote).
 * What came from the provider (refs "Accounting payment …", "Accounting credit note … on …": the
 * inbound sync, accounting-erp-money.ts) is never sent back. Each ERP record is sent once: its
 * accounting_erp_money row is claimed first, leased while the provider is called (no platform
 * transaction open meanwhile), and every create carries an Idempotency-Key derived from the ERP
 * record, so a retry after a lost reply gets the first answer. A record whose invoice is not at the
 * provider yet waits (RetryLater) for the invoice's own job.
 */
import type { Db } from '@platform/db';
import type { Erp, ErpRecord } from '@platform/erp';
import { RetryLater } from '@platform/outbox';
import type { AccountingApi } from '@platform/providers';

import { type AccountingRow, findAccounting } from '../settings/settings.repo.js';
import { findSentInvoice } from './accounting.repo.js';
import type { AccountingAttention } from './accounting-attention.js';
import type { AccountingCalls } from './accounting-calls.js';
import { type AccountingContacts, idempotencyKey } from './accounting-contacts.js';
import { m2oId, mapInvoice } from './accounting-invoice.mapping.js';
import * as repo from './accounting-money-out.repo.js';
import { ERP_PROVIDER_INVOICE_FIELD, refusedBy } from './accounting-sync.service.js';

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

const today = () => new Date().toISOString().slice(0, 10);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);
const skip = (reason: Exclude<MoneyOutResult, { pushed: true }>['reason']) =>
  ({ pushed: false, reason }) as MoneyOutResult;

export class AccountingMoneyOutService {
  constructor(
    private readonly db: Db,
    private readonly api: AccountingApi,
    private readonly calls: AccountingCalls,
    private readonly contacts: AccountingContacts,
    private readonly attention: AccountingAttention,
    private readonly leaseMs = 5 * 60_000,
  ) {}

  /** The record of a change-feed event (or of the reconciliation): a payment or a credit note. */
  push(tenantId: string, e: { erpDb: string; model: string; recordId: number }, erp: Erp): Promise<MoneyOutResult> {
    if (e.model === 'account.payment') return this.pushPayment(tenantId, e.erpDb, e.recordId, erp);
    if (e.model === 'account.move') return this.pushCreditNote(tenantId, e.erpDb, e.recordId, erp);
    return Promise.resolve(skip('not_money'));
  }

  /**
   * The ERP money on a synced invoice not sent yet (the reconciliation's catch of a missed change):
   * its customer payments and credit notes, and the refunds paid from those credit notes.
   */
  async unsent(tenantId: string, erpDb: string, invoiceId: number, erp: Erp): Promise<repo.MoneyOutKey[]> {
    const posted = ['state', '=', 'posted'] as [string, string, unknown];
    const notes = (
      await erp.searchRead(
        'account.move',
        [['reversed_entry_id', '=', invoiceId], ['move_type', '=', 'out_refund'], posted],
        {
          fields: ['ref'],
        },
      )
    ).filter((m) => !fromProvider(m['ref']));
    const payments = (
      await erp.searchRead(
        'account.payment',
        [
          ['reconciled_invoice_ids', 'in', [invoiceId, ...notes.map((n) => n.id)]],
          ['partner_type', '=', 'customer'],
          posted,
        ],
        { fields: ['ref'] },
      )
    ).filter((p) => !fromProvider(p['ref']));
    const sent = new Set((await repo.listMoneyOut(this.db, tenantId, erpDb)).map((k) => `${k.model}:${k.id}`));
    return [
      ...notes.map((n) => ({ erpDb, model: 'account.move' as const, id: n.id })),
      ...payments.map((p) => ({ erpDb, model: 'account.payment' as const, id: p.id })),
    ].filter((k) => !sent.has(`${k.model}:${k.id}`));
  }

  private async pushPayment(tenantId: string, erpDb: string, id: number, erp: Erp): Promise<MoneyOutResult> {
    const fields = ['state', 'payment_type', 'partner_type', 'amount', 'date', 'ref', 'name', 'company_id'];
    const [p] = await erp.read('account.payment', [id], [...fields, 'reconciled_invoice_ids']);
    if (!p || p['partner_type'] !== 'customer') return skip('not_money');
    if (p['state'] !== 'posted') return skip('not_posted');
    if (fromProvider(p['ref'])) return skip('from_provider');
    const row = await findAccounting(this.db, tenantId, m2oId(p['company_id']) ?? 1);
    if (!row) return skip('not_configured');
    const inbound = p['payment_type'] === 'inbound';
    const linked = ids(p['reconciled_invoice_ids']);
    const docs = linked.length ? await erp.read('account.move', linked, ['move_type', 'state', 'ref']) : [];
    const doc = docs.find((m) => m['move_type'] === (inbound ? 'out_invoice' : 'out_refund'));
    // Not reconciled with an invoice (the partner's outstanding credit), or a refund of the provider's own credit note.
    if (!doc || fromProvider(doc['ref'])) return skip('no_invoice');
    const target = inbound
      ? (await findSentInvoice(this.db, tenantId, erpDb, doc.id))?.provider_invoice_id
      : (await repo.findMoneyOut(this.db, tenantId, { erpDb, model: 'account.move', id: doc.id }))?.provider_id;
    if (!target)
      throw new RetryLater(
        `ERP ${inbound ? 'invoice' : 'credit note'} ${doc.id} is not at the provider yet`,
        WAIT_FOR_INVOICE_MS,
      );
    const kind = inbound ? 'payment' : 'refund';
    const key: repo.MoneyOutKey = { erpDb, model: 'account.payment', id };
    const amount = Number(p['amount']);
    const claim = await repo.claimMoneyOut(this.db, tenantId, key, { kind, target, amount });
    if (claim.provider_id) return skip('already_sent');
    if (!(await repo.takeMoneyOutLease(this.db, tenantId, key, 'create', this.leaseMs)))
      throw new RetryLater(`ERP payment ${id} is being sent by another worker`, 10_000);
    const input = {
      target: inbound ? { invoiceId: target } : { creditNoteId: target },
      accountCode: row.payment_account_code,
      amount,
      date: str(p['date']) ?? today(),
      reference: erpMoneyReference(kind, id, p['name']),
    };
    const made = await this.underLease(tenantId, key, () =>
      refusedBy(() =>
        this.calls.call(row, `create ${kind}`, (auth) =>
          this.api.createPayment(auth, {
            ...input,
            idempotencyKey: idempotencyKey(tenantId, erpDb, `account.payment:${id}`, `create-${kind}`, input),
          }),
        ),
      ),
    );
    if ('refused' in made) {
      await repo.releaseMoneyOutLease(this.db, tenantId, key);
      return this.refused(
        tenantId,
        erp,
        erpDb,
        doc.id,
        `ERP payment ${String(p['name'])} not sent to accounting: ${made.refused}`,
      );
    }
    await repo.setMoneyOutProviderId(this.db, tenantId, key, made.paymentId);
    return { pushed: true, kind, providerId: made.paymentId };
  }

  private async pushCreditNote(tenantId: string, erpDb: string, id: number, erp: Erp): Promise<MoneyOutResult> {
    const fields = [
      'name',
      'move_type',
      'state',
      'ref',
      'partner_id',
      'company_id',
      'invoice_date',
      'reversed_entry_id',
    ];
    const [move] = await erp.read(
      'account.move',
      [id],
      [...fields, 'invoice_line_ids', 'amount_total', 'invoice_date_due'],
    );
    if (!move || move['move_type'] !== 'out_refund') return skip('not_money');
    if (move['state'] !== 'posted') return skip('not_posted');
    if (fromProvider(move['ref'])) return skip('from_provider');
    const row = await findAccounting(this.db, tenantId, m2oId(move['company_id']) ?? 1);
    if (!row) return skip('not_configured');
    const invoiceId = m2oId(move['reversed_entry_id']);
    if (invoiceId === undefined) return skip('no_invoice');
    const sent = await findSentInvoice(this.db, tenantId, erpDb, invoiceId);
    if (!sent) throw new RetryLater(`ERP invoice ${invoiceId} is not at the provider yet`, WAIT_FOR_INVOICE_MS);
    const key: repo.MoneyOutKey = { erpDb, model: 'account.move', id };
    let claim = await repo.claimMoneyOut(this.db, tenantId, key, {
      kind: 'credit_note',
      target: sent.provider_invoice_id,
      amount: Number(move['amount_total']),
    });
    if (!claim.provider_id) {
      const made = await this.createCreditNote(tenantId, erpDb, row, move, key, erp);
      if ('refused' in made) return this.refused(tenantId, erp, erpDb, invoiceId, made.refused);
      claim = { ...claim, provider_id: made.creditNoteId };
    }
    const creditNoteId = claim.provider_id!;
    if (claim.allocated_at) return skip('already_sent');
    if (!(await repo.takeMoneyOutLease(this.db, tenantId, key, 'allocate', this.leaseMs)))
      throw new RetryLater(`ERP credit note ${id} is being allocated by another worker`, 10_000);
    const allocated = await this.underLease(tenantId, key, async () => {
      const note = await this.calls.call(row, 'get credit note', (auth) => this.api.getCreditNote(auth, creditNoteId));
      const already = note.allocations.find((a) => a.invoiceId === sent.provider_invoice_id);
      if (already) return already.amount; // a lost reply: the allocation was made
      const inv = await this.calls.call(row, 'get invoice', (auth) =>
        this.api.getInvoice(auth, sent.provider_invoice_id),
      );
      // As much as is still due: on a paid invoice the credit stays on the note for a refund payment.
      const amount = Math.min(note.remainingCredit, inv.status === 'AUTHORISED' ? inv.amountDue : 0);
      if (amount <= 0) return 0;
      const a = { invoiceId: sent.provider_invoice_id, amount, date: str(move['invoice_date']) ?? today() };
      await this.calls.call(row, 'allocate credit note', (auth) =>
        this.api.allocateCreditNote(
          auth,
          creditNoteId,
          a,
          idempotencyKey(tenantId, erpDb, `account.move:${id}`, 'allocate', a),
        ),
      );
      return amount;
    });
    await repo.setMoneyOutAllocated(this.db, tenantId, key, allocated);
    return { pushed: true, kind: 'credit_note', providerId: creditNoteId, allocated };
  }

  private async createCreditNote(
    tenantId: string,
    erpDb: string,
    row: AccountingRow,
    move: ErpRecord,
    key: repo.MoneyOutKey,
    erp: Erp,
  ): Promise<{ creditNoteId: string } | { refused: string }> {
    const mapped = await mapInvoice(row, move, erp);
    if (!mapped.ok)
      return {
        refused: `credit note ${String(move['name'])} not sent: no provider tax type for ${mapped.unmappedTaxes.join(', ')}`,
      };
    const contact = await refusedBy(() =>
      this.contacts.resolve(tenantId, row, erpDb, mapped.partnerId, mapped.contact),
    );
    if ('refused' in contact) return contact;
    if ('ambiguous' in contact) return { refused: contact.ambiguous };
    if (!(await repo.takeMoneyOutLease(this.db, tenantId, key, 'create', this.leaseMs)))
      throw new RetryLater(`ERP credit note ${move.id} is being sent by another worker`, 10_000);
    const { reference, date, lineAmountTypes, lines } = mapped.invoice;
    const input = { contactId: contact.contactId, reference, date, lineAmountTypes, lines };
    const made = await this.underLease(tenantId, key, () =>
      refusedBy(() =>
        this.calls.call(row, 'create credit note', (auth) =>
          this.api.createCreditNote(auth, {
            ...input,
            idempotencyKey: idempotencyKey(tenantId, erpDb, `account.move:${move.id}`, 'create-credit-note', input),
          }),
        ),
      ),
    );
    if ('refused' in made) {
      await repo.releaseMoneyOutLease(this.db, tenantId, key);
      return made;
    }
    await repo.setMoneyOutProviderId(this.db, tenantId, key, made.creditNoteId);
    // Shown on the ERP credit note as on an invoice; the provider id of record is the row's.
    await erp
      .write('account.move', [move.id], { [ERP_PROVIDER_INVOICE_FIELD]: made.creditNoteId })
      .catch(() => undefined);
    return { creditNoteId: made.creditNoteId };
  }

  private async refused(
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
  private async underLease<T>(tenantId: string, key: repo.MoneyOutKey, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      await repo.releaseMoneyOutLease(this.db, tenantId, key).catch(() => undefined);
      throw e;
    }
  }
}
