/**
 * Vendors and what each product costs from its vendor, in the tenant's ERP as Odoo keeps them:
 * vendors are `res.partner` with a `supplier_rank`; a grid product (the `product.product` whose
 * internal reference is the grid's product code) has one `product.supplierinfo` the platform edits
 * (vendor `name`, `product_code`, `price`, `delay` in days, Odoo 15's field names).
 */
import { fromMinor, toMinor } from '@platform/contracts/money.js';
import type { ProductSupplyInput, ProductSupplyView, SupplierView } from '@platform/contracts/purchase-orders.js';
import type { Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';

export type { ProductSupplyInput, ProductSupplyView, SupplierView };

const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
const m2o = (v: unknown) => (Array.isArray(v) ? { id: Number(v[0]), name: String(v[1]) } : null);

export async function listSuppliers(erp: Erp): Promise<SupplierView[]> {
  const rows = await erp.searchRead('res.partner', [['supplier_rank', '>', 0]], {
    fields: ['name', 'email'],
    order: 'name, id',
    limit: 500,
  });
  return rows.map((r) => ({ id: r.id, name: String(r.name), email: text(r.email) }));
}

export async function createSupplier(erp: Erp, s: { name: string; email: string | null }): Promise<SupplierView> {
  const id = await erp.create('res.partner', {
    name: s.name,
    email: s.email ?? false,
    is_company: true,
    supplier_rank: 1,
  });
  return { id, name: s.name, email: s.email };
}

export async function productOf(erp: Erp, code: string, create: boolean): Promise<number | undefined> {
  const [id] = await erp.search('product.product', [['default_code', '=', code]], { limit: 1, order: 'id' });
  if (id || !create) return id;
  // The grid's product is not in the ERP yet: made with the grid's code, as quotes look it up.
  return erp.create('product.product', { name: code, default_code: code, purchase_ok: true });
}

export async function productSupply(erp: Erp, code: string, currency: string): Promise<ProductSupplyView> {
  const product = await productOf(erp, code, false);
  const [info] = product
    ? await erp.searchRead('product.supplierinfo', [['product_id', '=', product]], {
        fields: ['name', 'product_code', 'price', 'delay'],
        order: 'sequence, id',
        limit: 1,
      })
    : [];
  if (!info) return { code, supplier: null, supplier_code: null, cost_minor: null, lead_days: null };
  return {
    code,
    supplier: m2o(info.name),
    supplier_code: text(info.product_code),
    cost_minor: toMinor(Number(info.price ?? 0), currency),
    lead_days: Number(info.delay ?? 0),
  };
}

export async function setProductSupply(
  erp: Erp,
  code: string,
  input: ProductSupplyInput,
  currency: string,
): Promise<ProductSupplyView> {
  const [vendor] = await erp.search('res.partner', [
    ['id', '=', input.supplier_id],
    ['supplier_rank', '>', 0],
  ]);
  if (!vendor)
    throw new AppError('VALIDATION_FAILED', 'supplier_id must be one of the suppliers', {
      fieldIssues: [{ field: 'supplier_id', rule: 'exists', message: 'must be one of the suppliers' }],
    });
  const product = (await productOf(erp, code, true))!;
  const vals = {
    name: input.supplier_id,
    product_code: input.supplier_code ?? false,
    price: fromMinor(input.cost_minor, currency),
    delay: input.lead_days,
  };
  const [info] = await erp.search('product.supplierinfo', [['product_id', '=', product]], {
    order: 'sequence, id',
    limit: 1,
  });
  if (info) await erp.write('product.supplierinfo', [info], vals);
  else await erp.create('product.supplierinfo', { ...vals, product_id: product });
  return productSupply(erp, code, currency);
}
