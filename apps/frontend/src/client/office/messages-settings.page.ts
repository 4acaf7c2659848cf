/**
 * /office/settings/messages: Settings → Customer messages (docs/messages.md). Each kind on or off with
 * its text and email; Preview fills the templates on screen with sample values (the API's preview);
 * Save sends them all, an unknown placeholder said beside its field.
 */
import type { MessagePreview, MessageSettings } from '@platform/contracts/messages.js';

import { call, postJson } from '../field/api.js';
import { $, h } from '../shared/dom.js';
import { messagesSettingsHtml } from './messages-settings.view.js';
import { say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { refusal, sendForm, settingsHead, tenantApi } from './settings-common.js';

let shown: MessageSettings | undefined;

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  shown = await call<MessageSettings>(await tenantApi('/messages'));
  app.innerHTML = `${settingsHead('Customer messages')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>${messagesSettingsHtml(shown)}`;
}

const value = (id: string) => $<HTMLInputElement | HTMLTextAreaElement>(`#${id}`)!.value;
const whole = (id: string) => (value(id).trim() === '' ? NaN : Number(value(id)));
const templates = (kind: string) => ({
  sms: value(`msg-${kind}-sms`),
  subject: value(`msg-${kind}-subject`),
  email: value(`msg-${kind}-email`),
});

function body() {
  return {
    reminder_hour: whole('msg-hour'),
    review_link: value('msg-review-link').trim() || null,
    review_delay_hours: whole('msg-review-delay'),
    quote_follow_up_days: whole('msg-quote-days'),
    invoice_reminder_days: whole('msg-invoice-days'),
    kinds: (shown?.kinds ?? []).map((k) => ({
      kind: k.kind,
      enabled: $<HTMLInputElement>(`#msg-${k.kind}-on`)!.checked,
      ...templates(k.kind),
    })),
  };
}

export const messagesSettingsPage: OfficePage = {
  async show(app, msg = '') {
    await draw(app, msg);
  },
  async submit(form, app) {
    if (form.id !== 'messages-form') return;
    const b = body();
    const put = async () =>
      void (await call(await tenantApi('/messages'), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b),
      }));
    if (await sendForm(form, put)) await draw(app, 'Customer messages saved.', 'ok');
  },
  async click(b) {
    const kind = b.dataset.preview;
    if (!kind) return;
    const out = $(`#msg-${kind}-preview`)!;
    try {
      const p = await postJson<MessagePreview>(await tenantApi('/messages/preview'), { kind, ...templates(kind) });
      out.innerHTML = `<div class="card"><p><strong>Text:</strong> ${h(p.sms)}</p><p><strong>Email:</strong> ${h(p.subject)}</p><p style="white-space:pre-line">${h(p.email)}</p></div>`;
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
