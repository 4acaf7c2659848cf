/**
 * Money made in the ERP → the accounting provider, so its AmountDue follows the ERP's residual:
 * - a posted customer payment reconciled with a synced invoice becomes a payment on that invoice
 *   (Xero `PUT /Payments`, on the connection's Payment Account Code);
 * - a posted credit note (`out_refund`) reversing a synced invoice becomes an AUTHORISED credit note
 *   (`PUT /CreditNotes`), allocated to the invoice for as much as is still due there
 *   (accounting-credit-notes-out.ts);
 * - a posted outbound customer payment reconciled with such a credit note (money given back) becomes
 *   a refund paid from the credit note (`PUT /Payments` with the CreditNote).
 * What came from the provider (refs "Accounting payment …", "Accounting credit note … on …": the
 * inbound sync, accounting-erp-money.ts) is never sent back. Each ERP record is sent once: its
 * accounting_erp_money row is claimed first, leased while the provider is called (no platform
 * transaction open meanwhile), and every create carries an Idempotency-Key derived from the ERP
 * record, so a retry after a lost reply gets the first answer. A record whose invoice is not at the
 * provider yet waits (RetryLater) for the invoice's own job.
 */
import type { Erp } from '@platform/erp';
import { RetryLater } from '@platform/outbox';

import { findAccounting } from '../settings/settings.repo.js';
import { findSentInvoice } from './accounting.repo.js';
import { idempotencyKey } from './accounting-contacts.js';
import { CreditNotesOut } from './accounting-credit-notes-out.js';
import { m2oId } from './accounting-invoice.mapping.js';
import * as repo from './accounting-money-out.repo.js';
import {
  erpMoneyReference,
  fromProvider,
  ids,
  MoneyOutBase,
  type MoneyOutResult,
  skip,
  str,
  today,
  WAIT_FOR_INVOICE_MS,
} from './accounting-money-out.shared.js';
import { refusedBy } from './accounting-sync.service.js';

export {
  erpMoneyReference,
  fromProvider,
  isErpMoneyReference,
  type MoneyOutResult,
  WAIT_FOR_INVOICE_MS,
} from './accounting-money-out.shared.js';

export class AccountingMoneyOutService extends MoneyOutBase {
  private readonly creditNotes = new CreditNotesOut(
    this.db,
    this.api,
    this.calls,
    this.contacts,
    this.attention,
    this.leaseMs,
  );

  /** The record of a change-feed event (or of the reconciliation): a payment or a credit note. */
  push(tenantId: string, e: { erpDb: string; model: string; recordId: number }, erp: Erp): Promise<MoneyOutResult> {
    if (e.model === 'account.payment') return this.pushPayment(tenantId, e.erpDb, e.recordId, erp);
    if (e.model === 'account.move') return this.creditNotes.pushCreditNote(tenantId, e.erpDb, e.recordId, erp);
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
}
