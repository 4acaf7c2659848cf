/**
 * An ERP customer invoice → the provider's invoice input, in the ERP's own terms so the totals
 * agree to the cent: unit price with up to 4 decimals (sent with unitdp=4), the line's discount as
 * DiscountRate, and each line's ERP taxes mapped to the provider's TaxType through the connection's
 * tax_types (lines without tax: no_tax_type). Both sides then compute a line as
 * round2(qty × price × (1 − discount/100)) and its tax as round2(line × rate), like Odoo 15's
 * default per-line rounding. A tax without a mapping is not guessed: the invoice is not sent.
 */
import type { Erp, ErpRecord } from '@platform/erp';
import type { ContactInput, CreateInvoiceInput } from '@platform/providers';

import type { AccountingRow } from '../settings/settings.repo.js';

export const m2oId = (v: unknown): number | undefined =>
  Array.isArray(v) && typeof v[0] === 'number' ? v[0] : typeof v === 'number' ? v : undefined;
const m2oName = (v: unknown): string => (Array.isArray(v) && typeof v[1] === 'string' ? v[1] : '');
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const round4 = (n: number): number => (Math.sign(n) * Math.round(Number((Math.abs(n) * 1e4).toPrecision(15)))) / 1e4;

export type InvoiceMapping =
  | { ok: true; invoice: Omit<CreateInvoiceInput, 'contactId'>; contact: ContactInput; partnerId: number }
  | { ok: false; unmappedTaxes: string[] };

/** `move` carries name, partner_id, invoice_date, invoice_date_due and invoice_line_ids. */
export async function mapInvoice(row: AccountingRow, move: ErpRecord, erp: Erp): Promise<InvoiceMapping> {
  const partnerId = m2oId(move['partner_id']) ?? 0;
  const [partner] = partnerId ? await erp.read('res.partner', [partnerId], ['name', 'email', 'phone', 'mobile']) : [];
  const lineIds = (move['invoice_line_ids'] as number[] | undefined) ?? [];
  const lines = lineIds.length
    ? await erp.read('account.move.line', lineIds, [
        'name',
        'product_id',
        'quantity',
        'price_unit',
        'discount',
        'tax_ids',
      ])
    : [];
  const taxIds = [...new Set(lines.flatMap((l) => (l['tax_ids'] as number[] | undefined) ?? []))];
  const taxNames = new Map(
    (taxIds.length ? await erp.read('account.tax', taxIds, ['name']) : []).map((t) => [t.id, String(t['name'])]),
  );
  const unmapped: string[] = [];
  const mapped = lines.map((l) => {
    const ids = [...((l['tax_ids'] as number[] | undefined) ?? [])].sort((a, b) => a - b);
    const key = ids.join(',');
    const taxType = ids.length === 0 ? row.no_tax_type : row.tax_types[key];
    if (taxType === undefined) unmapped.push(ids.map((id) => `${taxNames.get(id) ?? 'tax'} (id ${id})`).join(' + '));
    const isDeposit = row.down_payment_product_id !== null && m2oId(l['product_id']) === row.down_payment_product_id;
    const discount = typeof l['discount'] === 'number' ? l['discount'] : 0;
    return {
      description: str(l['name']) ?? (m2oName(l['product_id']) || 'Item'),
      quantity: Number(l['quantity'] ?? 1),
      unitAmount: round4(Number(l['price_unit'] ?? 0)),
      ...(discount ? { discountRate: discount } : {}),
      accountCode: isDeposit ? row.deposit_account_code : row.sales_account_code,
      taxType: taxType ?? '',
    };
  });
  if (unmapped.length) return { ok: false, unmappedTaxes: [...new Set(unmapped)] };
  const phone = str(partner?.['phone']) ?? str(partner?.['mobile']);
  const email = str(partner?.['email']);
  return {
    ok: true,
    partnerId,
    invoice: {
      reference: String(move['name']),
      date: str(move['invoice_date']) ?? new Date().toISOString().slice(0, 10),
      ...(str(move['invoice_date_due']) ? { dueDate: str(move['invoice_date_due'])! } : {}),
      lineAmountTypes: 'Exclusive',
      status: 'AUTHORISED',
      lines: mapped,
    },
    contact: {
      // Names as the provider keeps them (trimmed), so a look-up by name finds what a create stored.
      name: (str(partner?.['name']) ?? (m2oName(move['partner_id']) || `Partner ${partnerId}`)).trim(),
      contactNumber: `erp-partner-${partnerId}`,
      ...(email ? { email } : {}),
      ...(phone ? { phone } : {}),
    },
  };
}
