/** The sales taxes of the tenant's ERP that quote lines get (through the Erp port). */
import { type QuoteTaxes, type SaleTax } from '@platform/contracts/quote-tax.js';
import type { Erp, ErpRecord } from '@platform/erp';

const percentSaleTaxes = async (erp: Erp, ids: number[]): Promise<Map<number, SaleTax>> => {
  if (!ids.length) return new Map();
  const rows = await erp.read('account.tax', ids, ['name', 'amount', 'amount_type', 'type_tax_use', 'active']);
  // Only percent sale taxes: the amounts the quote builder can show before the order exists.
  return new Map(
    rows
      .filter((t) => t.amount_type === 'percent' && t.type_tax_use === 'sale' && t.active !== false)
      .map((t) => [t.id, { id: t.id, name: String(t.name), amount: Number(t.amount) }]),
  );
};

/**
 * The taxes quote lines get in the tenant's ERP: a product whose internal reference is the grid's
 * product code brings its own customer taxes (`taxes_id`); every other line gets the company's
 * default sale tax (`res.company.account_sale_tax_id`, when the ERP has that field and it is set).
 */
export async function saleTaxes(
  erp: Erp,
  codes: string[],
): Promise<{ taxes: QuoteTaxes; productIds: Map<string, number> }> {
  const products = codes.length
    ? await erp.searchRead('product.product', [['default_code', 'in', codes]], {
        fields: ['default_code', 'taxes_id'],
        order: 'id',
      })
    : [];
  const companyFields = await erp.fieldsGet('res.company', ['type']);
  const [company] =
    'account_sale_tax_id' in companyFields
      ? await erp.searchRead('res.company', [], { fields: ['account_sale_tax_id'], limit: 1, order: 'sequence, id' })
      : [];
  const defaultId = Array.isArray(company?.account_sale_tax_id) ? (company.account_sale_tax_id[0] as number) : null;
  const ids = (p: ErpRecord) => (Array.isArray(p.taxes_id) ? (p.taxes_id as number[]) : []);
  const all = await percentSaleTaxes(erp, [...new Set([...products.flatMap(ids), ...(defaultId ? [defaultId] : [])])]);
  const pick = (list: number[]) => list.flatMap((id) => (all.has(id) ? [all.get(id)!] : []));
  const productIds = new Map<string, number>();
  const byCode: Record<string, SaleTax[]> = {};
  for (const p of products) {
    const code = String(p.default_code);
    if (productIds.has(code)) continue;
    productIds.set(code, p.id);
    byCode[code] = pick(ids(p));
  }
  return { taxes: { default: pick(defaultId ? [defaultId] : []), products: byCode }, productIds };
}
