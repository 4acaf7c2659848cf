/** Settings → Customer messages as HTML (GET /api/tenants/{id}/messages): each kind, its templates and the options. */
import type { MessageKindSettings, MessageSettings } from '@platform/contracts/messages.js';

import { h } from '../shared/dom.js';
import { errSlot } from './office-common.js';

const num = (id: string, field: string, label: string, value: number, min: number, max: number) =>
  `<div><label for="${id}">${label}</label><input id="${id}" data-field="${field}" type="number" inputmode="numeric" min="${min}" max="${max}" value="${value}" aria-describedby="${id}-err">${errSlot(id, field)}</div>`;

function kindHtml(k: MessageKindSettings, i: number): string {
  const id = (part: string) => `msg-${k.kind}-${part}`;
  const field = (part: string) => `kinds.${i}.${part}`;
  return `<fieldset class="card" data-kind="${h(k.kind)}"><legend>${h(k.label)}</legend>
<label style="font-weight:400;display:flex;gap:.5rem;align-items:center"><input id="${id('on')}" type="checkbox" style="width:auto" ${k.enabled ? 'checked' : ''}> Send it</label>
<label for="${id('sms')}">Text</label><textarea id="${id('sms')}" data-field="${field('sms')}" rows="2" maxlength="1000" aria-describedby="${id('sms')}-err">${h(k.sms)}</textarea>${errSlot(id('sms'), field('sms'))}
<label for="${id('subject')}">Email subject</label><input id="${id('subject')}" data-field="${field('subject')}" maxlength="200" value="${h(k.subject)}" aria-describedby="${id('subject')}-err">${errSlot(id('subject'), field('subject'))}
<label for="${id('email')}">Email</label><textarea id="${id('email')}" data-field="${field('email')}" rows="4" maxlength="5000" aria-describedby="${id('email')}-err">${h(k.email)}</textarea>${errSlot(id('email'), field('email'))}
<div class="row"><button class="btn secondary" type="button" data-preview="${h(k.kind)}">Preview</button></div>
<div id="${id('preview')}" role="status" aria-live="polite"></div></fieldset>`;
}

export function messagesSettingsHtml(v: MessageSettings): string {
  return `<p>Texts go from the company’s default SMS line, emails from its sending domain. No text is sent between 21:00 and 08:00 (${h(v.time_zone)}): one due then waits for 08:00.</p>
<p class="muted">Placeholders: ${v.placeholders.map((p) => `<code>{{${h(p)}}}</code>`).join(' ')}</p>
<form id="messages-form" novalidate><section class="card"><h2>When</h2><div class="grid">
${num('msg-hour', 'reminder_hour', 'Reminder the day before at (hour, 0–23)', v.reminder_hour, 0, 23)}
${num('msg-review-delay', 'review_delay_hours', 'Review request, hours after the job is done', v.review_delay_hours, 0, 720)}
${num('msg-quote-days', 'quote_follow_up_days', 'Quote follow-up, days after sending', v.quote_follow_up_days, 1, 90)}
${num('msg-invoice-days', 'invoice_reminder_days', 'Invoice reminder, days after due', v.invoice_reminder_days, 1, 90)}
<div><label for="msg-review-link">Review link</label><input id="msg-review-link" data-field="review_link" type="url" maxlength="500" value="${h(v.review_link ?? '')}" placeholder="https://g.page/r/…" aria-describedby="msg-review-link-err">${errSlot('msg-review-link', 'review_link')}</div>
</div></section>
${v.kinds.map(kindHtml).join('')}
<button class="btn" type="submit">Save</button></form>`;
}
