/** purchase.order methods (Odoo 15 `purchase`, without the double-validation step: confirm → purchase). */
import { nowUtc } from '../lookup.js';
import { type Action, recordMethod, transition } from './common.js';

export const purchaseActions: Record<string, Action> = {
  button_confirm: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['draft', 'sent'],
      vals: () => ({ state: 'purchase', date_approve: nowUtc() }),
      refuse: 'Only requests for quotation (draft or sent) can be confirmed.',
    });
    return true;
  }),
  button_approve: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['to approve'],
      vals: () => ({ state: 'purchase', date_approve: nowUtc() }),
      refuse: 'Only orders waiting for approval can be approved.',
    });
    return {};
  }),
  button_cancel: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['draft', 'sent', 'to approve', 'purchase'],
      noop: ['cancel'],
      vals: { state: 'cancel' },
      refuse: 'You cannot cancel a locked purchase order. Unlock it first.',
    });
    return null;
  }),
  button_draft: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['cancel'],
      vals: { state: 'draft' },
      refuse: 'Only cancelled purchase orders can be set back to draft.',
    });
    return {};
  }),
  button_done: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['purchase'],
      vals: { state: 'done', priority: '0' },
      refuse: 'Only confirmed purchase orders can be locked.',
    });
    return null;
  }),
  button_unlock: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['done'],
      vals: { state: 'purchase' },
      refuse: 'Only locked purchase orders can be unlocked.',
    });
    return null;
  }),
};
