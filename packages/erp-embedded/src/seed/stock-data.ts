/**
 * The `stock` module data, by Odoo 15's external ids: the location tree (Physical Locations, Partner
 * Locations/Vendors and /Customers, Virtual Locations/Inventory adjustment), the main company's
 * warehouse "WH" with its stock location WH/Stock (`stock.stock_location_stock`) and its Receipts and
 * Delivery Orders operation types numbered WH/IN/00001 and WH/OUT/00001, and the reordering rules'
 * sequence.
 */
import { one, tbl } from '../orm/lookup.js';
import { write } from '../orm/write.js';
import type { Seeder } from './ensure.js';

export async function ensureStock(s: Seeder, company: number): Promise<void> {
  const env = s.env;
  const unit = await s.ensure('uom.product_uom_categ_unit', 'uom.category', { name: 'Unit' });
  await s.ensure('uom.product_uom_unit', 'uom.uom', { name: 'Units', category_id: unit, uom_type: 'reference' });
  const length = await s.ensure('uom.uom_categ_length', 'uom.category', { name: 'Length / Distance' });
  await s.ensure('uom.product_uom_meter', 'uom.uom', { name: 'm', category_id: length, uom_type: 'reference' });
  const loc = (xmlid: string, name: string, usage: string, parent: number | false, co: number | false = false) =>
    s.ensure(xmlid, 'stock.location', { name, usage, location_id: parent, company_id: co });
  const physical = await loc('stock.stock_location_locations', 'Physical Locations', 'view', false);
  const partners = await loc('stock.stock_location_locations_partner', 'Partner Locations', 'view', false);
  const virtual = await loc('stock.stock_location_locations_virtual', 'Virtual Locations', 'view', false);
  const vendors = await loc('stock.stock_location_suppliers', 'Vendors', 'supplier', partners);
  const customers = await loc('stock.stock_location_customers', 'Customers', 'customer', partners);
  await loc('stock.location_inventory', 'Inventory adjustment', 'inventory', virtual);
  await s.ensure('stock.sequence_mrp_op', 'ir.sequence', {
    name: 'Replenishment Report',
    code: 'stock.orderpoint',
    prefix: 'OP/',
    padding: 5,
    company_id: false,
  });

  const co = await one<{ name: string; partner_id: number }>(
    env,
    `SELECT name, partner_id FROM ${tbl(env, 'res.company')} WHERE id = $1`,
    [company],
  );
  const view = await loc('stock.warehouse0_view', 'WH', 'view', physical, company);
  const stock = await loc('stock.stock_location_stock', 'Stock', 'internal', view, company);
  const seq = (xmlid: string, code: string, prefix: string) =>
    s.ensure(xmlid, 'ir.sequence', {
      name: `${co?.name ?? 'WH'} Sequence ${code}`,
      code,
      prefix,
      padding: 5,
      company_id: company,
    });
  const type = async (xmlid: string, name: string, code: string, short: string, src: number, dest: number) =>
    s.ensure(xmlid, 'stock.picking.type', {
      name,
      code,
      sequence_code: short,
      sequence_id: await seq(`${xmlid}_sequence`, `stock.picking.wh.${short.toLowerCase()}`, `WH/${short}/`),
      default_location_src_id: src,
      default_location_dest_id: dest,
      company_id: company,
    });
  const incoming = await type('stock.picking_type_in', 'Receipts', 'incoming', 'IN', vendors, stock);
  const outgoing = await type('stock.picking_type_out', 'Delivery Orders', 'outgoing', 'OUT', stock, customers);
  const rec = env.registry;
  await s.ensure(
    'stock.warehouse0',
    'stock.warehouse',
    {
      name: co?.name ?? 'WH',
      code: 'WH',
      company_id: company,
      partner_id: co?.partner_id ?? false,
      view_location_id: view,
      lot_stock_id: stock,
      in_type_id: incoming,
      out_type_id: outgoing,
    },
    async (wh) => {
      await write(env, rec.get('stock.picking.type'), [incoming, outgoing], { warehouse_id: wh });
      await write(env, rec.get('stock.location'), [view, stock], { warehouse_id: wh });
    },
  );
}
