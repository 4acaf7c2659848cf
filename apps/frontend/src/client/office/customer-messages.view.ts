/** A customer's automatic messages (GET /customers/{id}/messages): kind, channels, sent or skipped and why. */
import { type AutoMessages, MESSAGE_CHANNELS } from '@platform/contracts/messages.js';

import { h } from '../shared/dom.js';

const CHANNEL = { sms: 'text', email: 'email', both: 'text and email' } as const;

export function autoMessagesHtml(a: AutoMessages | undefined): string {
  if (!a) return '';
  const items = a.messages
    .map(
      (m) =>
        `<li style="margin-bottom:.5rem"><strong>${h(m.label)}</strong> <span class="pill">${
          m.status === 'sent'
            ? `sent by ${h(m.channels.map((c) => (c === 'sms' ? 'text' : c)).join(' and '))}`
            : 'not sent'
        }</span>${m.reason ? ` <span class="muted">(${h(m.reason)})</span>` : ''}${
          m.text ? `<div style="white-space:pre-line">${h(m.text)}</div>` : ''
        }<div class="muted">${h(new Date(m.at).toLocaleString())}</div></li>`,
    )
    .join('');
  return `<section id="auto-messages" aria-labelledby="auto-messages-h"><h2 id="auto-messages-h">Automatic messages</h2>
<form id="channel-form" class="row"><label for="msg-channel">Send them by</label><select id="msg-channel">${MESSAGE_CHANNELS.map(
    (c) => `<option value="${c}"${c === a.channel ? ' selected' : ''}>${CHANNEL[c]}</option>`,
  ).join('')}</select><button class="btn secondary" type="submit">Save</button></form>
${items ? `<ul class="plain card">${items}</ul>` : '<p class="card muted">No automatic message yet.</p>'}</section>`;
}
