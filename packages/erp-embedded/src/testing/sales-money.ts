/**
 * A confirmed sale order's money in the ERP, as the tests of reports need it: confirm the order,
 * invoice it with the Create Invoice wizard, post the invoice and (when asked) register its whole
 * amount as paid. Every step is the ERP's own public method, over the Erp port.
 */
import type { Erp } from '@platform/erp';

/**
 * The invoice id; `payDate` (yyyy-mm-dd) dates the invoice and pays it in full that day, undefined
 * leaves it due and dated by the ERP. Dated by the caller because the tenant's day (its time zone)
 * can differ from the ERP server's date around midnight UTC.
 */
export async function invoiceOrder(erp: Erp, order: number, payDate?: string): Promise<number> {
  await erp.call('sale.order', 'action_confirm', [[order]]);
  const wizard = await erp.create('sale.advance.payment.inv', {}, { active_model: 'sale.order', active_ids: [order] });
  await erp.call('sale.advance.payment.inv', 'create_invoices', [[wizard]]);
  const [move] = (await erp.read('sale.order', [order], ['invoice_ids']))[0]!.invoice_ids as number[];
  if (payDate) await erp.write('account.move', [move!], { invoice_date: payDate });
  await erp.call('account.move', 'action_post', [[move!]]);
  if (payDate) {
    const reg = await erp.create(
      'account.payment.register',
      { payment_date: payDate },
      { active_model: 'account.move', active_ids: [move] },
    );
    await erp.call('account.payment.register', 'action_create_payments', [[reg]]);
  }
  return move!;
}
