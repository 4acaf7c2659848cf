/**
 * sale.order methods (Odoo 15 `sale`). Odoo silently skips records in other states for some of them
 * (action_draft); the embedded ERP refuses instead, so a client learns that nothing happened.
 */
import { nowUtc } from '../lookup.js';
import { type Action, recordMethod, transition } from './common.js';

export const saleActions: Record<string, Action> = {
  action_quotation_sent: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['draft'],
      vals: { state: 'sent' },
      refuse: 'Only draft orders can be marked as sent directly.',
    });
    return true;
  }),
  action_confirm: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['draft', 'sent'],
      vals: () => ({ state: 'sale', date_order: nowUtc() }),
      refuse: (r) =>
        `It is not allowed to confirm an order in the following states: ${r.state === 'sale' ? 'sale, ' : ''}done, cancel`,
    });
    return true;
  }),
  action_cancel: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['draft', 'sent', 'sale'],
      noop: ['cancel'],
      vals: { state: 'cancel' },
      refuse: 'You cannot cancel a locked order. Please unlock it first.',
    });
    return true;
  }),
  action_draft: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['cancel', 'sent'],
      vals: { state: 'draft' },
      refuse: 'Only cancelled orders and sent quotations can be set back to quotation.',
    });
    return true;
  }),
  action_done: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['sale'],
      vals: { state: 'done' },
      refuse: 'Only confirmed sales orders can be locked.',
    });
    return true;
  }),
  action_unlock: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['done'],
      vals: { state: 'sale' },
      refuse: 'Only locked sales orders can be unlocked.',
    });
    return true;
  }),
};
