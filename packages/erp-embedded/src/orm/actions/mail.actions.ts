/**
 * `message_post` (Odoo 15 `mail.thread`) on the records that have a chatter here: res.partner,
 * crm.lead, helpdesk.ticket. Keyword arguments as Odoo's: body, subject, message_type
 * (default `notification`), subtype_xmlid or subtype_id (default: a note), author_id (default the
 * caller's partner), email_from, and (Odoo passes other mail.message fields through) message_id,
 * parent_id, record_name. Returns the new mail.message id, as Odoo does over RPC.
 */
import { valueError } from '../../errors.js';
import { MESSAGE_TYPES } from '../../models/mail.models.js';
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { one, refId, tbl } from '../lookup.js';
import { checkAccess } from '../rules.js';
import { createRecord } from '../write.js';
import { type Action, type Kw, recordMethod } from './common.js';

const SUBTYPES: Record<string, { name: string; internal: boolean; sequence: number }> = {
  'mail.mt_comment': { name: 'Discussions', internal: false, sequence: 0 },
  'mail.mt_note': { name: 'Note', internal: true, sequence: 100 },
};

/** The subtype of an xml id, created with its external id on first use (databases made before the chatter). */
async function subtypeOf(env: Env, xmlid: string): Promise<number> {
  const known = await refId(env, xmlid, 'mail.message.subtype');
  if (known) return known;
  const spec = SUBTYPES[xmlid];
  if (!spec) throw valueError(`External ID not found in the system: ${xmlid}`);
  // Two first posts at once must not both create it.
  await env.q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${env.schema}:${xmlid}`]);
  const again = await refId(env, xmlid, 'mail.message.subtype');
  if (again) return again;
  const id = await createRecord(env, env.registry.get('mail.message.subtype'), spec);
  const [module, name] = xmlid.split('.');
  await createRecord(env, env.registry.get('ir.model.data'), {
    module,
    name,
    model: 'mail.message.subtype',
    res_id: id,
    noupdate: true,
  });
  return id;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const messagePost: Action = recordMethod(async (env: Env, m: ModelDef, ids: number[], args: unknown[], kw: Kw) => {
  if (ids.length !== 1) throw valueError(`Expected singleton: ${m.name}(${ids.join(', ')})`);
  await checkAccess(env, m, ids, 'read');
  const body = text(args[0] ?? kw.body) ?? '';
  const messageType = text(kw.message_type) ?? 'notification';
  if (!MESSAGE_TYPES.some(([k]) => k === messageType))
    throw valueError(`Wrong value for mail.message.message_type: '${messageType}'`);
  if (messageType === 'user_notification') throw valueError('Use message_notify to send a notification to an user.');
  const subtypeId =
    typeof kw.subtype_id === 'number' && kw.subtype_id > 0
      ? kw.subtype_id
      : await subtypeOf(
          env,
          text(kw.subtype_xmlid) ?? (messageType === 'comment' ? 'mail.mt_comment' : 'mail.mt_note'),
        );
  const authorId =
    typeof kw.author_id === 'number' && kw.author_id > 0
      ? kw.author_id
      : ((
          await one<{ partner_id: number | null }>(
            env,
            `SELECT partner_id FROM ${tbl(env, 'res.users')} WHERE id = $1`,
            [env.uid],
          )
        )?.partner_id ?? false);
  const rec = await one<{ name: string | null }>(
    env,
    `SELECT ${m.fields.has(m.recName) ? `"${m.recName}"` : 'NULL'}::text AS name FROM ${tbl(env, m.name)} WHERE id = $1`,
    [ids[0]],
  );
  return createRecord(env, env.registry.get('mail.message'), {
    model: m.name,
    res_id: ids[0],
    record_name: text(kw.record_name) ?? rec?.name ?? false,
    body,
    subject: text(kw.subject) ?? false,
    message_type: messageType,
    subtype_id: subtypeId,
    author_id: authorId,
    email_from: text(kw.email_from) ?? false,
    message_id: text(kw.message_id) ?? false,
    parent_id: typeof kw.parent_id === 'number' && kw.parent_id > 0 ? kw.parent_id : false,
  });
});

/** The models with a chatter, each with `message_post`. */
export const mailThreadActions: Record<string, Action> = { message_post: messagePost };
