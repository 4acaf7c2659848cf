/**
 * Posted customer invoice → the accounting provider, once. Idempotent at every step: our
 * accounting_invoices row, then the ERP's own x_acct_invoice_id, then the provider searched by
 * reference (the ERP invoice number) before creating, since a lost answer may hide a created
 * invoice. The contact is upserted by a stable ContactNumber `erp-partner-<id>`. Lines of the
 * Down Payment Product go to the Deposit Account Code, all others to the Sales Account Code;
 * tax codes are not mapped: the provider applies the account's default tax.
 */
import type { Db } from '@platform/db';
import type { Erp, ErpRecord } from '@platform/erp';
import type { ErpEventPayload } from '@platform/contracts';
import type { CreateInvoiceInput } from '@platform/providers';
import type { AccountingApi } from '@platform/providers';
import { findAccounting, type AccountingRow } from '../settings/settings.repo.js';
import type { AccountingCalls } from './accounting-calls.js';
import { findSentInvoice, insertSentInvoice } from './accounting.repo.js';

/** The ERP field holding the provider's invoice id (docs/erp.md, account.move). */
export const ERP_PROVIDER_INVOICE_FIELD = 'x_acct_invoice_id';

export type PushResult =
  | { pushed: true; providerInvoiceId: string; created: boolean }
  | { pushed: false; reason: 'not_customer_invoice' | 'not_posted' | 'not_configured' | 'already_sent'; providerInvoiceId?: string };

const m2oId = (v: unknown): number | undefined => (Array.isArray(v) && typeof v[0] === 'number' ? v[0] : typeof v === 'number' ? v : undefined);
const m2oName = (v: unknown): string => (Array.isArray(v) && typeof v[1] === 'string' ? v[1] : '');
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const round = (n: number, d = 4): number => Math.round(n * 10 ** d) / 10 ** d;

export class AccountingSyncService {
  constructor(
    private readonly db: Db,
    private readonly api: AccountingApi,
    private readonly calls: AccountingCalls,
  ) {}

  async pushInvoice(tenantId: string, event: Pick<ErpEventPayload, 'erpDb' | 'model' | 'recordId'>, erp: Erp): Promise<PushResult> {
    if (event.model !== 'account.move') return { pushed: false, reason: 'not_customer_invoice' };
    const [move] = await erp.read('account.move', [event.recordId], [
      'name', 'move_type', 'state', 'partner_id', 'company_id', 'invoice_date', 'invoice_date_due', 'invoice_line_ids', ERP_PROVIDER_INVOICE_FIELD,
    ]);
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
    const found = await this.calls.call(row, 'find invoice', (auth) => this.api.findInvoiceByReference(auth, reference));
    let providerId = found?.invoiceId;
    let number = found?.invoiceNumber ?? null;
    if (!providerId) {
      const input = await this.invoiceInput(row, move, erp);
      // Upserting a contact is two provider calls (find by ContactNumber, then create or update).
      const contact = await this.calls.call(row, 'upsert contact', (auth) => this.api.upsertContact(auth, input.contact), 2);
      const created = await this.calls.call(row, 'create invoice', (auth) => this.api.createInvoice(auth, { ...input.invoice, contactId: contact.contactId }));
      providerId = created.invoiceId;
      number = created.invoiceNumber;
    }
    await this.remember(tenantId, event.erpDb, move, providerId, number, erp);
    return { pushed: true, providerInvoiceId: providerId, created: !found };
  }

  private async remember(tenantId: string, erpDb: string, move: ErpRecord, providerId: string, number: string | null, erp: Erp): Promise<void> {
    await insertSentInvoice(this.db, tenantId, { erp_db: erpDb, erp_invoice_id: move.id, provider_invoice_id: providerId, provider_invoice_number: number });
    if (move[ERP_PROVIDER_INVOICE_FIELD] !== providerId) await erp.write('account.move', [move.id], { [ERP_PROVIDER_INVOICE_FIELD]: providerId });
  }

  private async invoiceInput(row: AccountingRow, move: ErpRecord, erp: Erp) {
    const partnerId = m2oId(move['partner_id']);
    const [partner] = partnerId ? await erp.read('res.partner', [partnerId], ['name', 'email', 'phone', 'mobile']) : [];
    const lineIds = (move['invoice_line_ids'] as number[] | undefined) ?? [];
    const lines = lineIds.length ? await erp.read('account.move.line', lineIds, ['name', 'product_id', 'quantity', 'price_unit', 'discount']) : [];
    const invoice: Omit<CreateInvoiceInput, 'contactId'> = {
      reference: String(move['name']),
      date: str(move['invoice_date']) ?? new Date().toISOString().slice(0, 10),
      ...(str(move['invoice_date_due']) ? { dueDate: str(move['invoice_date_due'])! } : {}),
      lineAmountTypes: 'Exclusive',
      status: 'AUTHORISED',
      lines: lines.map((l) => {
        const isDeposit = row.down_payment_product_id !== null && m2oId(l['product_id']) === row.down_payment_product_id;
        const discount = typeof l['discount'] === 'number' ? l['discount'] : 0;
        return {
          description: str(l['name']) ?? (m2oName(l['product_id']) || 'Item'),
          quantity: Number(l['quantity'] ?? 1),
          unitAmount: round(Number(l['price_unit'] ?? 0) * (1 - discount / 100)),
          accountCode: isDeposit ? row.deposit_account_code : row.sales_account_code,
        };
      }),
    };
    const contact = {
      name: str(partner?.['name']) ?? m2oName(move['partner_id']) ?? `Partner ${partnerId}`,
      contactNumber: `erp-partner-${partnerId ?? 0}`,
      ...(str(partner?.['email']) ? { email: str(partner?.['email'])! } : {}),
      ...(str(partner?.['phone']) ?? str(partner?.['mobile']) ? { phone: (str(partner?.['phone']) ?? str(partner?.['mobile']))! } : {}),
    };
    return { invoice, contact };
  }
}
