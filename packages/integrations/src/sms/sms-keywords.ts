/**
 * SMS keywords (CTIA's and the carriers' rules; docs/integrations.md, "SMS keywords"): an inbound
 * text that is, whole and trimmed, STOP, UNSUBSCRIBE, CANCEL, END or QUIT opts the number out of that
 * tenant's texts; START or UNSTOP opts it back in; HELP is answered with the company's name and
 * contact. Each gets one reply, queued in the transaction that records the inbound text, so a
 * redelivered webhook (a duplicate, refused before this runs) never replies twice.
 */
import type { Queryable } from '@platform/db';
import { tenantBranding } from '@platform/tenancy';

import * as optOuts from './sms-opt-outs.repo.js';
import { queueSmsIn } from './sms-queue.js';

const STOP = ['STOP', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];
const START = ['START', 'UNSTOP'];

export type SmsKeyword = { kind: 'stop' | 'start' | 'help'; word: string };

/** The keyword a text is, or undefined: only the whole message counts ("stop by at 3" is a text). */
export function smsKeyword(body: string): SmsKeyword | undefined {
  const word = body.trim().toUpperCase();
  if (STOP.includes(word)) return { kind: 'stop', word };
  if (START.includes(word)) return { kind: 'start', word };
  if (word === 'HELP') return { kind: 'help', word };
  return undefined;
}

/** The reply to a keyword, signed with the company's name; HELP gives its phone and email when set. */
export function keywordReply(
  kind: SmsKeyword['kind'],
  company: { company_name: string; phone: string | null; email: string | null },
): string {
  const name = company.company_name || 'We';
  if (kind === 'stop')
    return `${name}: you are unsubscribed and will get no more texts from us. Reply START to resubscribe.`;
  if (kind === 'start')
    return `${name}: you are subscribed to our texts again. Reply STOP to unsubscribe, HELP for help.`;
  const contact = [company.phone && `call ${company.phone}`, company.email && `email ${company.email}`]
    .filter(Boolean)
    .join(' or ');
  return `${name}: ${contact ? `for help ${contact}` : 'reply to this text for help'}. Reply STOP to unsubscribe.`;
}

/**
 * Acts on an inbound text if it is a keyword: the opt-out is stored (or removed) and the reply
 * queued from the line it reached. Returns the keyword acted on, if any.
 */
export async function applySmsKeyword(
  tx: Queryable,
  tenantId: string,
  text: { line: string; contact: string; body: string },
): Promise<SmsKeyword | undefined> {
  const k = smsKeyword(text.body);
  if (!k) return undefined;
  if (k.kind === 'stop') await optOuts.optOut(tx, tenantId, text.contact, k.word);
  if (k.kind === 'start') await optOuts.optIn(tx, tenantId, text.contact);
  const body = keywordReply(k.kind, await tenantBranding(tx, tenantId));
  await queueSmsIn(tx, { tenantId, from: text.line, to: text.contact, body, keywordReply: true });
  return k;
}
