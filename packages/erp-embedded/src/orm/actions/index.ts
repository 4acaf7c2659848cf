/**
 * Business methods callable through execute_kw, by model (Odoo's public model methods). Record
 * methods take the ids as the first positional argument, as `odoo.api.call_kw` does. Each runs in
 * the call's transaction with `env.action` set, writes through the ORM (write_date, computes,
 * record rules) and refuses invalid transitions with `odoo.exceptions.UserError`.
 */
import { companies } from '../rules.js';
import { nextByCode } from '../sequence.js';
import { accountActions } from './account.actions.js';
import { type Action, modelMethod } from './common.js';
import { fsmActions } from './fsm.actions.js';
import { mailThreadActions } from './mail.actions.js';
import { paymentActions, registerActions } from './payment.actions.js';
import { purchaseActions } from './purchase.actions.js';
import { saleActions } from './sale.actions.js';
import { advancePaymentActions } from './sale-invoice.actions.js';
import { pickingActions, quantActions } from './stock.actions.js';

export type { Action } from './common.js';

const sequenceActions: Record<string, Action> = {
  // `ir.sequence.next_by_code(code)` → the next number, or false when no sequence has that code.
  next_by_code: modelMethod(async (env, _m, _ids, args, kw) => {
    const code = args[0] ?? kw.sequence_code;
    if (typeof code !== 'string') return false;
    return nextByCode(env, code, (await companies(env)).current);
  }),
};

export const ACTIONS: Record<string, Record<string, Action>> = {
  'sale.order': saleActions,
  'purchase.order': purchaseActions,
  'account.move': accountActions,
  'account.payment': paymentActions,
  'account.payment.register': registerActions,
  'fsm.order': fsmActions,
  'ir.sequence': sequenceActions,
  'res.partner': mailThreadActions,
  'crm.lead': mailThreadActions,
  'helpdesk.ticket': mailThreadActions,
  'sale.advance.payment.inv': advancePaymentActions,
  'stock.picking': pickingActions,
  'stock.quant': quantActions,
};

export function actionOf(model: string, method: string): Action | undefined {
  const table = ACTIONS[model];
  return table && Object.hasOwn(table, method) ? table[method] : undefined;
}
