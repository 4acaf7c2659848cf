/**
 * One-click unsubscribe (RFC 8058, RFC 2369) for non-transactional mail (reminders, follow-ups):
 * each such message gets a random token, kept only as its SHA-256, an unsubscribe link in its body
 * and the `List-Unsubscribe` / `List-Unsubscribe-Post` headers. Mailbox providers POST
 * `List-Unsubscribe=One-Click` to the URL with no cookie or login; that POST adds the recipient to
 * the tenant's suppression list as `unsubscribed`, which blocks only that tenant's
 * non-transactional mail (receipts and password resets still arrive).
 */
import { createHash } from 'node:crypto';

import type { Queryable } from '@platform/db';
import { randomToken } from '@platform/kernel';

import { findByUnsubscribeToken } from '../delivery/email-messages.repo.js';
import { insertSuppression } from '../suppression/suppression.repo.js';
import { escapeHtml } from '../templates/html.js';

/** Why a message is sent: `transactional` mail answers the recipient's own action and has no unsubscribe. */
export type EmailCategory = 'transactional' | 'reminder' | 'follow_up';

export const UNSUBSCRIBE_PATH = '/email/unsubscribe';

export const hashUnsubscribeToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new token, its hash to store, the URL and the headers and body additions that carry it. */
export function unsubscribeParts(baseUrl: string): {
  hash: string;
  url: string;
  headers: Record<string, string>;
} {
  const token = randomToken(24);
  const url = `${baseUrl.replace(/\/$/, '')}${UNSUBSCRIBE_PATH}/${token}`;
  return {
    hash: hashUnsubscribeToken(token),
    url,
    headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/** The rendered mail with its unsubscribe link: in the text's last line and the HTML's footer. */
export function withUnsubscribeLink(r: { text: string; html: string }, url: string): { text: string; html: string } {
  const line = 'To stop these emails, unsubscribe';
  const p = `<p style="font-size:12px;color:#666">${line}: <a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`;
  const html = r.html.includes('</body>') ? r.html.replace('</body>', `${p}</body>`) : `${r.html}${p}`;
  return { text: `${r.text}\n\n${line}: ${url}\n`, html };
}

/** The POST to the link: the recipient is unsubscribed from that tenant's mail; false for an unknown token. */
export async function unsubscribe(db: Queryable, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return false;
  const m = await findByUnsubscribeToken(db, hashUnsubscribeToken(token));
  if (!m) return false;
  await insertSuppression(db, {
    tenantId: m.tenant_id,
    email: m.to_address,
    scope: 'tenant',
    reason: 'unsubscribed',
    provider: 'unsubscribe-link',
  });
  return true;
}
