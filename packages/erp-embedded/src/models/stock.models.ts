/**
 * Inventory (Odoo 15 `stock`): locations, the warehouse and its operation types, transfers
 * (`stock.picking`) and their moves, the stock on hand by location (`stock.quant`) and reordering
 * rules. Quants change only when a move is done (button_validate, action_apply_inventory) and are
 * reserved by assigned moves (action_assign). Actions: orm/actions/stock.actions.ts; the product's
 * quantities: stock-product.models.ts.
 */
import { f } from '../fields.js';
import { nowUtc } from '../orm/lookup.js';
import type { ModelSpec } from '../registry.js';
import { companyField, related } from './common.js';
import { completeName, quantDifferences } from './stock.computes.js';

export const LOCATION_USAGES: [string, string][] = [
  ['supplier', 'Vendor Location'],
  ['view', 'View'],
  ['internal', 'Internal Location'],
  ['customer', 'Customer Location'],
  ['inventory', 'Inventory Loss'],
  ['production', 'Production'],
  ['transit', 'Transit Location'],
];

export const PICKING_STATES: [string, string][] = [
  ['draft', 'Draft'],
  ['waiting', 'Waiting Another Operation'],
  ['confirmed', 'Waiting'],
  ['assigned', 'Ready'],
  ['done', 'Done'],
  ['cancel', 'Cancelled'],
];

export const MOVE_STATES: [string, string][] = [
  ['draft', 'New'],
  ['cancel', 'Cancelled'],
  ['waiting', 'Waiting Another Move'],
  ['confirmed', 'Waiting Availability'],
  ['partially_available', 'Partially Available'],
  ['assigned', 'Available'],
  ['done', 'Done'],
];

const PICKING_CODES: [string, string][] = [
  ['incoming', 'Receipt'],
  ['outgoing', 'Delivery'],
  ['internal', 'Internal Transfer'],
];

const location = (string: string, opts = {}) => f.many2one('stock.location', string, opts);

export const stockModels: ModelSpec[] = [
  // Units of measure (Odoo 15 `uom`), so moves name their unit as Odoo's must (`product_uom`).
  {
    name: 'uom.category',
    description: 'Product UoM Categories',
    fields: { name: f.char('Unit of Measure Category', { required: true }) },
  },
  {
    name: 'uom.uom',
    description: 'Product Unit of Measure',
    order: 'factor DESC, id',
    fields: {
      name: f.char('Unit of Measure', { required: true }),
      category_id: f.many2one('uom.category', 'Category', { required: true, ondelete: 'cascade' }),
      factor: f.float('Ratio', { default: 1, required: true }),
      rounding: f.float('Rounding Precision', { default: 0.01, required: true }),
      uom_type: f.selection(
        'Type',
        [
          ['bigger', 'Bigger than the reference Unit of Measure'],
          ['reference', 'Reference Unit of Measure for this category'],
          ['smaller', 'Smaller than the reference Unit of Measure'],
        ],
        { default: 'reference', required: true },
      ),
      active: f.boolean('Active', { default: true }),
    },
  },
  {
    name: 'stock.location',
    description: 'Inventory Locations',
    order: 'complete_name, id',
    recName: 'complete_name',
    parentName: 'location_id',
    fields: {
      name: f.char('Location Name', { required: true }),
      complete_name: f.char('Full Location Name'),
      active: f.boolean('Active', { default: true }),
      usage: f.selection('Location Type', LOCATION_USAGES, { default: 'internal', required: true }),
      location_id: location('Parent Location', { ondelete: 'cascade' }),
      child_ids: f.one2many('stock.location', 'location_id', 'Contains'),
      barcode: f.char('Barcode'),
      scrap_location: f.boolean('Is a Scrap Location?', { default: false }),
      company_id: f.many2one('res.company', 'Company'),
      warehouse_id: f.many2one('stock.warehouse', 'Warehouse'),
    },
    computes: [completeName],
  },
  {
    name: 'stock.warehouse',
    description: 'Warehouse',
    order: 'sequence, id',
    fields: {
      name: f.char('Warehouse', { required: true }),
      code: f.char('Short Name', { required: true }),
      active: f.boolean('Active', { default: true }),
      sequence: f.integer('Sequence', { default: 10 }),
      company_id: companyField(true),
      partner_id: f.many2one('res.partner', 'Address'),
      view_location_id: location('View Location'),
      lot_stock_id: location('Location Stock'),
      in_type_id: f.many2one('stock.picking.type', 'In Type'),
      out_type_id: f.many2one('stock.picking.type', 'Out Type'),
    },
  },
  {
    name: 'stock.picking.type',
    description: 'Picking Type',
    order: 'sequence, id',
    fields: {
      name: f.char('Operation Type', { required: true }),
      code: f.selection('Type of Operation', PICKING_CODES, { required: true }),
      sequence: f.integer('Sequence', { default: 10 }),
      sequence_code: f.char('Code', { required: true }),
      sequence_id: f.many2one('ir.sequence', 'Reference Sequence'),
      active: f.boolean('Active', { default: true }),
      warehouse_id: f.many2one('stock.warehouse', 'Warehouse', { ondelete: 'cascade' }),
      default_location_src_id: location('Default Source Location'),
      default_location_dest_id: location('Default Destination Location'),
      company_id: companyField(true),
    },
  },
  {
    name: 'stock.picking',
    description: 'Transfer',
    order: 'priority desc, scheduled_date asc, id desc',
    fields: {
      name: f.char('Reference', { default: '/', readonly: true }),
      origin: f.char('Source Document'),
      note: f.html('Notes'),
      state: f.selection('Status', PICKING_STATES, { default: 'draft', readonly: true }),
      priority: f.selection(
        'Priority',
        [
          ['0', 'Normal'],
          ['1', 'Urgent'],
        ],
        { default: '0' },
      ),
      move_type: f.selection(
        'Shipping Policy',
        [
          ['direct', 'As soon as possible'],
          ['one', 'When all products are ready'],
        ],
        { default: 'direct', required: true },
      ),
      scheduled_date: f.datetime('Scheduled Date', { defaultFn: () => nowUtc() }),
      date_done: f.datetime('Date of Transfer', { readonly: true }),
      location_id: location('Source Location', { required: true }),
      location_dest_id: location('Destination Location', { required: true }),
      picking_type_id: f.many2one('stock.picking.type', 'Operation Type', { required: true }),
      picking_type_code: f.selection('Type of Operation', PICKING_CODES),
      partner_id: f.many2one('res.partner', 'Contact'),
      company_id: companyField(true),
      user_id: f.many2one('res.users', 'Responsible', { defaultFn: ({ uid }) => uid }),
      move_lines: f.one2many('stock.move', 'picking_id', 'Stock Moves'),
      move_ids_without_package: f.one2many('stock.move', 'picking_id', 'Stock moves not in package'),
    },
    computes: [related('picking_type_id', { picking_type_code: 'code' })],
  },
  {
    name: 'stock.move',
    description: 'Stock Move',
    order: 'sequence, id',
    fields: {
      name: f.char('Description', { required: true }),
      sequence: f.integer('Sequence', { default: 10 }),
      reference: f.char('Reference'),
      origin: f.char('Source Document'),
      state: f.selection('Status', MOVE_STATES, { default: 'draft', readonly: true }),
      date: f.datetime('Date Scheduled', { required: true, defaultFn: () => nowUtc() }),
      product_id: f.many2one('product.product', 'Product', { required: true }),
      product_uom_qty: f.float('Demand', { default: 0, required: true }),
      // Required in Odoo 15; here it defaults to the product's unit when the product has one.
      product_uom: f.many2one('uom.uom', 'Unit of Measure'),
      quantity_done: f.float('Quantity Done', { default: 0 }),
      reserved_availability: f.float('Quantity Reserved', { default: 0, readonly: true }),
      location_id: location('Source Location', { required: true }),
      location_dest_id: location('Destination Location', { required: true }),
      picking_id: f.many2one('stock.picking', 'Transfer', { ondelete: 'cascade' }),
      picking_type_id: f.many2one('stock.picking.type', 'Operation Type'),
      partner_id: f.many2one('res.partner', 'Destination Address'),
      is_inventory: f.boolean('Inventory', { default: false }),
      company_id: companyField(true),
    },
  },
  {
    name: 'stock.quant',
    description: 'Quants',
    order: 'location_id, id',
    recName: 'product_id',
    fields: {
      product_id: f.many2one('product.product', 'Product', { required: true, ondelete: 'restrict' }),
      location_id: location('Location', { required: true, ondelete: 'restrict' }),
      quantity: f.float('Quantity', { default: 0, readonly: true }),
      reserved_quantity: f.float('Reserved Quantity', { default: 0, readonly: true }),
      available_quantity: f.float('Available Quantity'),
      inventory_quantity: f.float('Counted Quantity', { default: 0 }),
      inventory_diff_quantity: f.float('Difference'),
      inventory_quantity_set: f.boolean('Inventory Quantity Set', { default: false }),
      inventory_date: f.date('Scheduled Date'),
      in_date: f.datetime('Incoming Date', { readonly: true, defaultFn: () => nowUtc() }),
      lot_id: f.many2one('stock.production.lot', 'Lot/Serial Number'),
      package_id: f.many2one('stock.quant.package', 'Package'),
      owner_id: f.many2one('res.partner', 'Owner'),
      company_id: f.many2one('res.company', 'Company'),
      user_id: f.many2one('res.users', 'Assigned To'),
    },
    // Odoo 15: `company_id = fields.Many2one(related='location_id.company_id', store=True)`.
    computes: [quantDifferences, related('location_id', { company_id: 'company_id' })],
  },
  {
    name: 'stock.warehouse.orderpoint',
    description: 'Minimum Inventory Rule',
    order: 'location_id, company_id, id',
    sequenceCode: 'stock.orderpoint',
    fields: {
      name: f.char('Name', { required: true, default: 'New' }),
      active: f.boolean('Active', { default: true }),
      trigger: f.selection(
        'Trigger',
        [
          ['auto', 'Auto'],
          ['manual', 'Manual'],
        ],
        { default: 'auto', required: true },
      ),
      warehouse_id: f.many2one('stock.warehouse', 'Warehouse', { required: true, ondelete: 'cascade' }),
      location_id: location('Location', { required: true, ondelete: 'cascade' }),
      product_id: f.many2one('product.product', 'Product', { required: true, ondelete: 'cascade' }),
      product_min_qty: f.float('Min Quantity', { default: 0, required: true }),
      product_max_qty: f.float('Max Quantity', { default: 0, required: true }),
      qty_multiple: f.float('Multiple Quantity', { default: 1, required: true }),
      company_id: companyField(true),
    },
    constraints: [
      'CREATE UNIQUE INDEX IF NOT EXISTS stock_warehouse_orderpoint_product_location_check ON $T (product_id, location_id, company_id)',
    ],
  },
  // Lots and packages exist so the quant's relational fields answer as Odoo's do (false when unused).
  {
    name: 'stock.production.lot',
    description: 'Lot/Serial',
    fields: {
      name: f.char('Lot/Serial Number', { required: true }),
      product_id: f.many2one('product.product', 'Product', { required: true }),
      company_id: f.many2one('res.company', 'Company'),
    },
  },
  {
    name: 'stock.quant.package',
    description: 'Packages',
    fields: { name: f.char('Package Reference', { required: true }), company_id: f.many2one('res.company', 'Company') },
  },
];
