/**
 * The chatter (Odoo 15 `mail` module): `mail.message` rows attached to any record by `model` +
 * `res_id`, with the subtypes "Discussions" (`mail.mt_comment`) and "Note" (`mail.mt_note`).
 * Messages are written by `message_post` on the records (orm/actions/mail.actions.ts), so staff
 * see a conversation (an SMS from a customer) where they work: on the partner, lead or ticket.
 */
import { f } from '../fields.js';
import { nowUtc } from '../orm/lookup.js';
import type { ModelSpec } from '../registry.js';

/** Odoo 15's `message_type` selection, with `sms` as the `sms` module adds it. */
export const MESSAGE_TYPES: [string, string][] = [
  ['email', 'Email'],
  ['comment', 'Comment'],
  ['notification', 'System notification'],
  ['user_notification', 'User Specific Notification'],
  ['sms', 'SMS'],
];

export const mailModels: ModelSpec[] = [
  {
    name: 'mail.message.subtype',
    description: 'Message subtypes',
    order: 'sequence, id',
    fields: {
      name: f.char('Message Type', { required: true }),
      description: f.text('Description'),
      internal: f.boolean('Internal Only', { default: false }),
      res_model: f.char('Model'),
      default: f.boolean('Default', { default: true }),
      sequence: f.integer('Sequence', { default: 1 }),
      hidden: f.boolean('Hidden', { default: false }),
    },
  },
  {
    name: 'mail.message',
    description: 'Message',
    order: 'id desc',
    recName: 'record_name',
    fields: {
      subject: f.char('Subject'),
      date: f.datetime('Date', { defaultFn: () => nowUtc() }),
      body: f.html('Contents', { default: '' }),
      model: f.char('Related Document Model'),
      res_id: f.integer('Related Document ID'),
      record_name: f.char('Message Record Name'),
      message_type: f.selection('Type', MESSAGE_TYPES, { required: true, default: 'email' }),
      subtype_id: f.many2one('mail.message.subtype', 'Subtype', { ondelete: 'set null' }),
      author_id: f.many2one('res.partner', 'Author', { ondelete: 'set null' }),
      email_from: f.char('From'),
      parent_id: f.many2one('mail.message', 'Parent Message', { ondelete: 'set null' }),
      message_id: f.char('Message-Id'),
    },
    constraints: ['CREATE INDEX IF NOT EXISTS mail_message_model_res_id_idx ON $T (model, res_id)'],
  },
];
