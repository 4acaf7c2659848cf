/**
 * Vendors of a product (Odoo 15 `product` + `purchase`): `product.supplierinfo` with Odoo 15's field
 * names (the vendor is `name`, renamed `partner_id` only in Odoo 16), `product.product.seller_ids`,
 * and the received quantity of a purchase line (`qty_received`, Odoo's manual method when no stock
 * moves exist), so the platform's supplier orders read and write the same fields on either ERP.
 */
import { f } from '../fields.js';
import type { ModelExtension, ModelSpec } from '../registry.js';
import { currencyField } from './common.js';

export const purchaseSupplierModels: ModelSpec[] = [
  {
    name: 'product.supplierinfo',
    description: 'Supplier Pricelist',
    order: 'sequence, min_qty desc, price, id',
    fields: {
      name: f.many2one('res.partner', 'Vendor', { required: true, ondelete: 'cascade' }),
      product_name: f.char('Vendor Product Name'),
      product_code: f.char('Vendor Product Code'),
      sequence: f.integer('Sequence', { default: 1 }),
      min_qty: f.float('Quantity', { default: 0 }),
      price: f.float('Price', { default: 0, required: true }),
      delay: f.integer('Delivery Lead Time', { default: 1, required: true }),
      date_start: f.date('Start Date'),
      date_end: f.date('End Date'),
      product_id: f.many2one('product.product', 'Product Variant'),
      company_id: f.many2one('res.company', 'Company'),
      currency_id: currencyField(),
    },
  },
];

export const purchaseSupplierExtensions: ModelExtension[] = [
  { model: 'product.product', fields: { seller_ids: f.one2many('product.supplierinfo', 'product_id', 'Vendors') } },
  {
    model: 'purchase.order.line',
    fields: {
      qty_received: f.float('Received Qty', { default: 0 }),
      qty_received_method: f.selection('Received Qty Method', [['manual', 'Manual']], { default: 'manual' }),
      sale_line_id: f.many2one('sale.order.line', 'Origin Sale Item'),
    },
  },
];
