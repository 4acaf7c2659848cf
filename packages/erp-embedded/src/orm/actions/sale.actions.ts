/**
 * sale.order methods (Odoo 15 `sale`). Odoo silently skips records in other states for some of them
 * (action_draft); the embedded ERP refuses instead, so a client learns that nothing happened.
 */
import { nowUtc } from '../lookup.js';
import { type Action, transitionMethod } from './common.js';

export const saleActions: Record<string, Action> = {
  action_quotation_sent: transitionMethod(
    { from: ['draft'], vals: { state: 'sent' }, refuse: 'Only draft orders can be marked as sent directly.' },
    true,
  ),
  action_confirm: transitionMethod(
    {
      from: ['draft', 'sent'],
      vals: () => ({ state: 'sale', date_order: nowUtc() }),
      refuse: (r) =>
        `It is not allowed to confirm an order in the following states: ${r.state === 'sale' ? 'sale, ' : ''}done, cancel`,
    },
    true,
  ),
  action_cancel: transitionMethod(
    {
      from: ['draft', 'sent', 'sale'],
      noop: ['cancel'],
      vals: { state: 'cancel' },
      refuse: 'You cannot cancel a locked order. Please unlock it first.',
    },
    true,
  ),
  action_draft: transitionMethod(
    {
      from: ['cancel', 'sent'],
      vals: { state: 'draft' },
      refuse: 'Only cancelled orders and sent quotations can be set back to quotation.',
    },
    true,
  ),
  action_done: transitionMethod(
    { from: ['sale'], vals: { state: 'done' }, refuse: 'Only confirmed sales orders can be locked.' },
    true,
  ),
  action_unlock: transitionMethod(
    { from: ['done'], vals: { state: 'sale' }, refuse: 'Only locked sales orders can be unlocked.' },
    true,
  ),
};
