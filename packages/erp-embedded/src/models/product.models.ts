/**
 * Products (Odoo 15 `product`). The embedded ERP has no product.template: the template's fields
 * (list_price, type, categ_id, taxes_id...) live on product.product itself.
 */
import { f } from '../fields.js';
import type { ModelSpec } from '../registry.js';

export const PRODUCT_TYPES: [string, string][] = [
  ['consu', 'Consumable'],
  ['service', 'Service'],
  ['product', 'Storable Product'],
];

export const productModels: ModelSpec[] = [
  {
    name: 'product.category',
    description: 'Product Category',
    order: 'name',
    recursionMessage: 'You cannot create recursive categories.',
    fields: {
      name: f.char('Name', { required: true }),
      parent_id: f.many2one('product.category', 'Parent Category', { ondelete: 'cascade' }),
      child_id: f.one2many('product.category', 'parent_id', 'Child Categories'),
    },
  },
  {
    name: 'product.product',
    description: 'Product',
    order: 'default_code, name, id',
    fields: {
      name: f.char('Name', { required: true }),
      default_code: f.char('Internal Reference'),
      barcode: f.char('Barcode'),
      type: f.selection('Product Type', PRODUCT_TYPES, { default: 'consu', required: true }),
      categ_id: f.many2one('product.category', 'Product Category'),
      list_price: f.float('Sales Price', { default: 1.0 }),
      standard_price: f.float('Cost'),
      description: f.html('Description'),
      description_sale: f.text('Sales Description'),
      description_purchase: f.text('Purchase Description'),
      sale_ok: f.boolean('Can be Sold', { default: true }),
      purchase_ok: f.boolean('Can be Purchased', { default: true }),
      invoice_policy: f.selection(
        'Invoicing Policy',
        [
          ['order', 'Ordered quantities'],
          ['delivery', 'Delivered quantities'],
        ],
        { default: 'order' },
      ),
      taxes_id: f.many2many('account.tax', 'Customer Taxes', f.relTable('product_taxes_rel', 'prod_id', 'tax_id')),
      supplier_taxes_id: f.many2many(
        'account.tax',
        'Vendor Taxes',
        f.relTable('product_supplier_taxes_rel', 'prod_id', 'tax_id'),
      ),
      // No default: products are shared between companies unless given one (Odoo's default too).
      company_id: f.many2one('res.company', 'Company'),
      active: f.boolean('Active', { default: true }),
    },
  },
];
