/** Test fixtures of quotes: the windows of one customer's house, and the ERP orders a quote made. */
import type { CrmSalesKit } from './crm-sales-kit.js';

export const threeWindows = {
  customer: { name: 'Dana Whitfield', email: 'dana@example.com', phone: '720-555-0142', city: 'Denver', zip: '80202' },
  lines: [
    {
      product_code: 'roller-shade',
      room: 'Kitchen',
      width_in: 35.5,
      drop_in: 47.125,
      mount: 'inside',
      colour: 'Linen',
      options: ['motorisation'],
    },
    {
      product_code: 'roller-shade',
      room: 'Den',
      width_in: 36,
      drop_in: 36,
      mount: 'outside',
      colour: 'Grey',
      options: [],
    },
    {
      product_code: 'shutter',
      room: 'Bedroom',
      width_in: 30,
      drop_in: 50,
      mount: 'inside',
      colour: 'White',
      options: ['z-frame'],
    },
  ],
};

export const ordersWithOrigin = async (k2: CrmSalesKit, quoteId: string) =>
  k2.a.erp.erp.search('sale.order', [['origin', '=', `platform-quote:${quoteId}`]]);
