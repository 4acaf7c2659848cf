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
  ).join(
    '',
  )}</select><label for="msg-zone">Their time zone</label><input id="msg-zone" name="time_zone" list="msg-zones"
 value="${h(a.time_zone ?? '')}" placeholder="the company's" autocomplete="off" aria-describedby="msg-zone-hint">${zoneList()}
<button class="btn secondary" type="submit">Save</button></form>
<p id="msg-zone-hint" class="muted">No texts between 21:00 and 08:00 in their time zone (the company's when empty).</p>
${items ? `<ul class="plain card">${items}</ul>` : '<p class="card muted">No automatic message yet.</p>'}</section>`;
}

/** The zones the browser knows (the server checks against its own ICU data too). */
function zoneList(): string {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return `<datalist id="msg-zones">${zones.map((z) => `<option value="${h(z)}">`).join('')}</datalist>`;
}
