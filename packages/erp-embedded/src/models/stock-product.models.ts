/**
 * What `stock` adds to products (Odoo 15 `_inherit = 'product.product'`): the quants and moves of a
 * product and its quantities over the internal locations (on hand, free, incoming, outgoing,
 * forecasted). Storable products are `type = 'product'`; consumables (`consu`) are moved but not
 * checked against their stock.
 */
import { f } from '../fields.js';
import type { ModelExtension } from '../registry.js';
import { productQuantities } from './stock.computes.js';

export const stockProductExtensions: ModelExtension[] = [
  {
    model: 'product.product',
    fields: {
      uom_id: f.many2one('uom.uom', 'Unit of Measure'),
      uom_po_id: f.many2one('uom.uom', 'Purchase Unit of Measure'),
      stock_quant_ids: f.one2many('stock.quant', 'product_id', 'Stock Quants'),
      stock_move_ids: f.one2many('stock.move', 'product_id', 'Stock Moves'),
      qty_available: f.float('Quantity On Hand', { default: 0, readonly: true }),
      free_qty: f.float('Free To Use Quantity ', { default: 0, readonly: true }),
      incoming_qty: f.float('Incoming', { default: 0, readonly: true }),
      outgoing_qty: f.float('Outgoing', { default: 0, readonly: true }),
      virtual_available: f.float('Forecasted Quantity', { default: 0, readonly: true }),
      orderpoint_ids: f.one2many('stock.warehouse.orderpoint', 'product_id', 'Minimum Stock Rules'),
    },
    computes: [productQuantities],
  },
];
