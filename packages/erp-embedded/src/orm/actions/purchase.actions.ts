/** purchase.order methods (Odoo 15 `purchase`, without the double-validation step: confirm → purchase). */
import { nowUtc } from '../lookup.js';
import { type Action, transitionMethod } from './common.js';

export const purchaseActions: Record<string, Action> = {
  button_confirm: transitionMethod(
    {
      from: ['draft', 'sent'],
      vals: () => ({ state: 'purchase', date_approve: nowUtc() }),
      refuse: 'Only requests for quotation (draft or sent) can be confirmed.',
    },
    true,
  ),
  button_approve: transitionMethod(
    {
      from: ['to approve'],
      vals: () => ({ state: 'purchase', date_approve: nowUtc() }),
      refuse: 'Only orders waiting for approval can be approved.',
    },
    {},
  ),
  button_cancel: transitionMethod(
    {
      from: ['draft', 'sent', 'to approve', 'purchase'],
      noop: ['cancel'],
      vals: { state: 'cancel' },
      refuse: 'You cannot cancel a locked purchase order. Unlock it first.',
    },
    null,
  ),
  button_draft: transitionMethod(
    { from: ['cancel'], vals: { state: 'draft' }, refuse: 'Only cancelled purchase orders can be set back to draft.' },
    {},
  ),
  button_done: transitionMethod(
    {
      from: ['purchase'],
      vals: { state: 'done', priority: '0' },
      refuse: 'Only confirmed purchase orders can be locked.',
    },
    null,
  ),
  button_unlock: transitionMethod(
    { from: ['done'], vals: { state: 'purchase' }, refuse: 'Only locked purchase orders can be unlocked.' },
    null,
  ),
};
