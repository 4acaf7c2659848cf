/**
 * An inbound SMS in the ERP, where staff work: posted (mail.message, `message_post`) on the chatter
 * of the partner with that number, else of an open lead with that number, else of a new lead.
 * Every ERP write is idempotent across lost replies: the new lead carries an external id
 * (`platform_sms.sms_<id>`) and a marker paragraph it is found by if the id link was lost; the
 * chatter message carries a Message-Id (`<sms-<id>@platform>`) it is found by before posting again.
 */
import type { Domain, Erp } from '@platform/erp';
import { isSamePhone } from '@platform/providers';
import { escapeHtml } from '@platform/web/escape-html.js';

export const SMS_XMLID_MODULE = 'platform_sms';
const NO_ACTIVE_TEST = { active_test: false };

export interface InboundSms {
  id: string;
  contact_number: string;
  body: string;
}

export const smsXmlIdName = (smsId: string): string => `sms_${smsId.replace(/-/g, '')}`;
export const smsMarker = (smsId: string): string => `platform-sms:${smsId}`;
export const smsMessageId = (smsId: string): string => `<sms-${smsId}@platform>`;

/** Customer text is escaped, so it can never contain this markup and pass for another SMS's marker. */
const markerParagraph = (smsId: string) => `<p data-platform-ref="${smsMarker(smsId)}">${smsMarker(smsId)}</p>`;

/**
 * Partners and leads keep numbers as typed. The ERP narrows the candidates (the last seven digits in
 * order, whatever lies between); only a number that is the whole E.164 number, compared after
 * parsing, is a match: "+1 720 555 0130 ext. 188" is not 720-555-0188.
 */
function phoneCandidates(contact: string): Domain {
  const pattern = `%${contact.slice(-7).split('').join('%')}%`;
  return ['|', ['phone', 'ilike', pattern], ['mobile', 'ilike', pattern]];
}

async function firstWithPhone(erp: Erp, model: string, contact: string, extra: Domain, order: string) {
  const domain: Domain = extra.length ? ['&', ...phoneCandidates(contact), ...extra] : phoneCandidates(contact);
  const rows = await erp.searchRead(model, domain, {
    fields: ['phone', 'mobile'],
    order,
    limit: 200,
  });
  return rows.find((r) => isSamePhone(r.phone, contact) || isSamePhone(r.mobile, contact))?.id as number | undefined;
}

/** The lead an earlier attempt created for this SMS: by external id, else (its link reply lost) by marker. */
async function earlierLead(erp: Erp, smsId: string): Promise<number | undefined> {
  const [x] = await erp.searchRead(
    'ir.model.data',
    [
      ['module', '=', SMS_XMLID_MODULE],
      ['name', '=', smsXmlIdName(smsId)],
    ],
    { fields: ['res_id'], limit: 1 },
  );
  if (x) return Number(x.res_id);
  const [byMarker] = await erp.search('crm.lead', [['description', 'ilike', smsMarker(smsId)]], {
    limit: 1,
    order: 'id',
    context: NO_ACTIVE_TEST,
  });
  if (byMarker !== undefined) await linkLead(erp, smsId, byMarker);
  return byMarker;
}

const linkLead = (erp: Erp, smsId: string, leadId: number) =>
  erp.create('ir.model.data', {
    module: SMS_XMLID_MODULE,
    name: smsXmlIdName(smsId),
    model: 'crm.lead',
    res_id: leadId,
    noupdate: true,
  });

/** Where the text goes: the partner, an open lead, or a lead created once for it. */
export async function chatterTarget(
  erp: Erp,
  m: InboundSms,
): Promise<{ model: 'res.partner' | 'crm.lead'; id: number; created: boolean }> {
  const earlier = await earlierLead(erp, m.id);
  if (earlier !== undefined) return { model: 'crm.lead', id: earlier, created: true };
  const partner = await firstWithPhone(erp, 'res.partner', m.contact_number, [], 'id');
  if (partner !== undefined) return { model: 'res.partner', id: partner, created: false };
  // An open lead: active and not won (probability under 100).
  const open: Domain = ['|', ['probability', '=', false], ['probability', '<', 100]];
  const lead = await firstWithPhone(erp, 'crm.lead', m.contact_number, open, 'id desc');
  if (lead !== undefined) return { model: 'crm.lead', id: lead, created: false };
  const id = await erp.create('crm.lead', {
    name: `SMS from +${m.contact_number}`,
    phone: `+${m.contact_number}`,
    description: `<p>${escapeHtml(m.body)}</p>${markerParagraph(m.id)}`,
    type: 'lead',
  });
  await linkLead(erp, m.id, id);
  return { model: 'crm.lead', id, created: true };
}

/** Posts the text on the record's chatter once; returns the mail.message id. */
export async function postOnChatter(erp: Erp, target: { model: string; id: number }, m: InboundSms): Promise<number> {
  const messageId = smsMessageId(m.id);
  const [posted] = await erp.search('mail.message', [['message_id', '=', messageId]], { limit: 1 });
  if (posted !== undefined) return posted;
  const author = target.model === 'res.partner' ? { author_id: target.id } : {};
  return Number(
    await erp.call(target.model, 'message_post', [[target.id]], {
      body: `<p>${escapeHtml(m.body)}</p>`,
      message_type: 'sms',
      subtype_xmlid: 'mail.mt_comment',
      email_from: `+${m.contact_number}`,
      message_id: messageId,
      ...author,
    }),
  );
}
