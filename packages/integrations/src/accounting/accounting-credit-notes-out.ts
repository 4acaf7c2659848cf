/**
 * An ERP credit note (`out_refund`, posted, reversing a synced invoice, not from the provider) → an
 * AUTHORISED credit note at the provider (Xero `PUT /CreditNotes`, lines and contact mapped as the
 * invoice's), allocated to the invoice for as much as is still due there (`PUT /CreditNotes/{id}/Allocations`;
 * on a paid invoice nothing: the credit stays on the note for a refund payment). Created once
 * (claimed row, lease, Idempotency-Key) and allocated once (looked for on the note before it is made).
 */
import type { Erp, ErpRecord } from '@platform/erp';
import { RetryLater } from '@platform/outbox';

import { type AccountingRow, findAccounting } from '../settings/settings.repo.js';
import { findSentInvoice } from './accounting.repo.js';
import { idempotencyKey } from './accounting-contacts.js';
import { m2oId, mapInvoice } from './accounting-invoice.mapping.js';
import * as repo from './accounting-money-out.repo.js';
import {
  fromProvider,
  MoneyOutBase,
  type MoneyOutResult,
  skip,
  str,
  today,
  WAIT_FOR_INVOICE_MS,
} from './accounting-money-out.shared.js';
import { ERP_PROVIDER_INVOICE_FIELD, refusedBy } from './accounting-sync.service.js';

export class CreditNotesOut extends MoneyOutBase {
  async pushCreditNote(tenantId: string, erpDb: string, id: number, erp: Erp): Promise<MoneyOutResult> {
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
}
