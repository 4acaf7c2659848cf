/**
 * Posted customer invoice → the accounting provider, once, with totals equal to the ERP's to the
 * cent (accounting-invoice.mapping.ts). Idempotent at every step: our accounting_invoices row, the
 * ERP's own x_acct_invoice_id, the provider searched by reference (the ERP invoice number) before
 * creating, and the create itself carrying an Idempotency-Key derived from the ERP invoice, so a
 * lost reply followed by a retry is answered with the first invoice. The contact is resolved by
 * accounting-contacts.ts. What cannot be settled by retrying (an ambiguous contact, an unmapped
 * tax, a total that differs) becomes a needs-attention item on the invoice, never a silent pass.
 */
import type { ErpEventPayload } from '@platform/contracts';
import type { Db } from '@platform/db';
import type { Erp, ErpRecord } from '@platform/erp';
import { PermanentFailure } from '@platform/outbox';
import { type AccountingApi, isAccountingError } from '@platform/providers';

import { findAccounting } from '../settings/settings.repo.js';
import { findSentInvoice, insertSentInvoice } from './accounting.repo.js';
import type { AccountingAttention } from './accounting-attention.js';
import type { AccountingCalls } from './accounting-calls.js';
import { type AccountingContacts, idempotencyKey } from './accounting-contacts.js';
import { m2oId, mapInvoice } from './accounting-invoice.mapping.js';
import type { AccountingTaxMapping } from './accounting-tax-mapping.service.js';

/** The ERP field holding the provider's invoice id (docs/erp.md, account.move). */
export const ERP_PROVIDER_INVOICE_FIELD = 'x_acct_invoice_id';

export type PushResult =
  | { pushed: true; providerInvoiceId: string; created: boolean; totalsAgree: boolean }
  | {
      pushed: false;
      reason: 'not_customer_invoice' | 'not_posted' | 'not_configured' | 'already_sent';
      providerInvoiceId?: string;
    }
  | { pushed: false; reason: 'needs_attention'; detail: string };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const money = (n: number) => n.toFixed(2);

export class AccountingSyncService {
  constructor(
    private readonly db: Db,
    private readonly api: AccountingApi,
    private readonly calls: AccountingCalls,
    private readonly contacts: AccountingContacts,
    private readonly attention: AccountingAttention,
    private readonly taxes?: Pick<AccountingTaxMapping, 'autoMapRow'>,
  ) {}

  async pushInvoice(
    tenantId: string,
    event: Pick<ErpEventPayload, 'erpDb' | 'model' | 'recordId'>,
    erp: Erp,
  ): Promise<PushResult> {
    if (event.model !== 'account.move') return { pushed: false, reason: 'not_customer_invoice' };
    const [move] = await erp.read(
      'account.move',
      [event.recordId],
      [
        'name',
        'move_type',
        'state',
        'partner_id',
        'company_id',
        'invoice_date',
        'invoice_date_due',
        'invoice_line_ids',
        'amount_total',
        ERP_PROVIDER_INVOICE_FIELD,
      ],
    );
    if (!move || move['move_type'] !== 'out_invoice') return { pushed: false, reason: 'not_customer_invoice' };
    if (move['state'] !== 'posted') return { pushed: false, reason: 'not_posted' };
    const row = await findAccounting(this.db, tenantId, m2oId(move['company_id']) ?? 1);
    if (!row) return { pushed: false, reason: 'not_configured' };

    const sent = await findSentInvoice(this.db, tenantId, event.erpDb, move.id);
    const known = sent?.provider_invoice_id ?? str(move[ERP_PROVIDER_INVOICE_FIELD]);
    if (known) {
      await this.remember(tenantId, event.erpDb, move, known, sent?.provider_invoice_number ?? null, erp);
      return { pushed: false, reason: 'already_sent', providerInvoiceId: known };
    }
    const reference = String(move['name']);
    const found = await this.calls.call(row, 'find invoice', (auth) =>
      this.api.findInvoiceByReference(auth, reference),
    );
    let providerId = found?.invoiceId;
    let number = found?.invoiceNumber ?? null;
    let total = found?.total;
    if (!providerId) {
      let mapped = await mapInvoice(row, move, erp);
      if (!mapped.ok && this.taxes) {
        // Taxes are mapped by rate the first time an invoice needs them; what stays unmapped needs a choice.
        const added = await this.taxes.autoMapRow(row, erp);
        if (Object.keys(added).length)
          mapped = await mapInvoice({ ...row, tax_types: { ...row.tax_types, ...added } }, move, erp);
      }
      if (!mapped.ok) {
        return this.needsAttention(
          tenantId,
          erp,
          event.erpDb,
          move.id,
          'unmapped_tax',
          `Not sent to accounting: no provider tax type is mapped for ${mapped.unmappedTaxes.join(', ')}. Choose one in Integrations → Accounting → Tax mapping (connection "${row.name}").`,
        );
      }
      const refused = (detail: string) =>
        this.needsAttention(tenantId, erp, event.erpDb, move.id, 'provider_refused', detail);
      const contact = await refusedBy(() =>
        this.contacts.resolve(tenantId, row, event.erpDb, mapped.partnerId, mapped.contact),
      );
      if ('refused' in contact) return refused(`Not sent to accounting: ${contact.refused}`);
      if ('ambiguous' in contact)
        return this.needsAttention(
          tenantId,
          erp,
          event.erpDb,
          move.id,
          'ambiguous_contact',
          `Not sent to accounting: ${contact.ambiguous}`,
        );
      const input = { ...mapped.invoice, contactId: contact.contactId };
      const key = idempotencyKey(tenantId, event.erpDb, `account.move:${move.id}`, 'create-invoice', input);
      const created = await refusedBy(() =>
        this.calls.call(row, 'create invoice', (auth) =>
          this.api.createInvoice(auth, { ...input, idempotencyKey: key }),
        ),
      );
      if ('refused' in created) return refused(`Not sent to accounting: ${created.refused}`);
      await this.attention.clear(tenantId, erp, event.erpDb, move.id, [
        'unmapped_tax',
        'ambiguous_contact',
        'provider_refused',
      ]);
      providerId = created.invoiceId;
      number = created.invoiceNumber;
      total = created.total;
    }
    await this.remember(tenantId, event.erpDb, move, providerId, number, erp);
    const erpTotal = Number(move['amount_total'] ?? 0);
    const totalsAgree = total !== undefined && Math.round(total * 100) === Math.round(erpTotal * 100);
    if (totalsAgree) await this.attention.clear(tenantId, erp, event.erpDb, move.id, ['total_mismatch']);
    else
      await this.attention.flag(
        tenantId,
        erp,
        event.erpDb,
        move.id,
        'total_mismatch',
        `Accounting total ${money(total ?? 0)} differs from the ERP total ${money(erpTotal)} (invoice ${number ?? providerId}).`,
      );
    return { pushed: true, providerInvoiceId: providerId, created: !found, totalsAgree };
  }

  private async needsAttention(
    tenantId: string,
    erp: Erp,
    erpDb: string,
    moveId: number,
    kind: 'unmapped_tax' | 'ambiguous_contact' | 'provider_refused',
    detail: string,
  ): Promise<PushResult> {
    await this.attention.flag(tenantId, erp, erpDb, moveId, kind, detail);
    return { pushed: false, reason: 'needs_attention', detail };
  }

  private async remember(
    tenantId: string,
    erpDb: string,
    move: ErpRecord,
    providerId: string,
    number: string | null,
    erp: Erp,
  ): Promise<void> {
    await insertSentInvoice(this.db, tenantId, {
      erp_db: erpDb,
      erp_invoice_id: move.id,
      provider_invoice_id: providerId,
      provider_invoice_number: number,
    });
    if (move[ERP_PROVIDER_INVOICE_FIELD] !== providerId)
      await erp.write('account.move', [move.id], { [ERP_PROVIDER_INVOICE_FIELD]: providerId });
  }
}

/**
 * The provider refused the data (a validation error): retrying the same data cannot help, so the
 * office is shown why on the invoice instead of the job ending in a dead letter nobody reads.
 */
export async function refusedBy<T extends object>(fn: () => Promise<T>): Promise<T | { refused: string }> {
  try {
    return await fn();
  } catch (e) {
    const cause = e instanceof PermanentFailure ? e.cause : undefined;
    if (isAccountingError(cause) && cause.kind === 'validation')
      return { refused: `the accounting provider refused it: ${[cause.message, ...cause.details].join('; ')}` };
    throw e;
  }
}
