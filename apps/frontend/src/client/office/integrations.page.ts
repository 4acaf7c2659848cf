/**
 * /office/settings/integrations: the company's accounting connection, SMS and team chat
 * (GET /api/tenants/{id}/integrations), the accounting's tax mapping (tax-mapping.section.ts) and the
 * site's Meta pixel (meta-pixel.section.ts), their forms, and "Send a test" of each with its outcome.
 * Connect asks the control plane for the provider's authorize URL and offers it as a link (a new tab:
 * the provider's pages, then the ERP's "connected" page); Refresh then shows the new state.
 * A test text is queued like any other: the page follows it until the provider has taken it.
 */
import type { IntegrationsView, IntegrationTestOutcome } from '@platform/contracts/integrations.js';

import { call, postJson } from '../field/api.js';
import { $, h } from '../shared/dom.js';
import { CHAT_FLAGS, integrationsHtml } from './integrations.view.js';
import { metaPixelHtml, metaTracking, saveMetaPixel } from './meta-pixel.section.js';
import { say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { refusal, SecondPress, sendForm, settingsHead, tenantApi } from './settings-common.js';
import { saveTaxMapping, taxMapping, taxMappingHtml } from './tax-mapping.section.js';

const press = new SecondPress();
const api = (rest = '') => tenantApi(`/integrations${rest}`);
const put = async (rest: string, body: unknown) =>
  call(await api(rest), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const value = (id: string) => $<HTMLInputElement>(`#${id}`)!.value.trim();

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  const [v, meta] = await Promise.all([call<IntegrationsView>(await api()), metaTracking()]);
  const taxes = v.accounting.state === 'connected' ? await taxMapping() : undefined;
  app.innerHTML = `${settingsHead('Integrations')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
<p>Your company’s own accounts at its accounting provider, SMS provider and team chat. Secrets are stored sealed and never shown again.</p>
${integrationsHtml(v, press.armed, taxMappingHtml(taxes))}${metaPixelHtml(meta)}`;
}

const said = (o: IntegrationTestOutcome, id: string) => say(o.detail, id, o.ok ? 'ok' : 'err');

/** Follows a queued test text for up to 20 s: the worker sends it through the outbox. */
async function follow(o: IntegrationTestOutcome): Promise<void> {
  said(o, 'sms-test-out');
  for (let i = 0; i < 40 && o.message_id; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const m = await call<{ accepted: boolean; status: string }>(await api(`/sms/messages/${o.message_id}`));
    if (m.accepted) return say(`${o.detail} Sent: the provider took it (${m.status}).`, 'sms-test-out', 'ok');
  }
  say(`${o.detail} Not sent yet: it goes out when the worker runs.`, 'sms-test-out', 'err');
}

export const integrationsPage: OfficePage = {
  async show(app, msg = '') {
    press.armed = '';
    await draw(app, msg);
  },
  async submit(form, app) {
    if (form.id === 'sms-form') {
      const body = {
        api_key: value('sms-key'),
        api_secret: value('sms-secret'),
        webhook_base_url: value('sms-base'),
        ...(value('sms-whsec') ? { webhook_secret: value('sms-whsec') } : {}),
      };
      if (await sendForm(form, async () => void (await put('/sms', body))))
        await draw(app, 'SMS credentials saved.', 'ok');
    } else if (form.id === 'line-form') {
      const body = {
        name: value('line-name'),
        phone_number: value('line-phone'),
        line_type: $<HTMLSelectElement>('#line-type')!.value,
        is_default: $<HTMLInputElement>('#line-default')!.checked,
      };
      if (await sendForm(form, async () => void (await postJson(await api('/sms/lines'), body))))
        await draw(app, `Line ${body.name} added.`, 'ok');
    } else if (form.id === 'sms-test-form') {
      let out: IntegrationTestOutcome | undefined;
      const sent = await sendForm(
        form,
        async () => void (out = await postJson(await api('/sms/test'), { to: value('sms-to') })),
        'sms-test-out',
      );
      if (sent && out) await follow(out);
    } else if (form.id === 'chat-form') {
      const url = value('chat-url');
      const body = {
        ...(url ? { webhook_url: url } : {}),
        ...Object.fromEntries(CHAT_FLAGS.map(([k]) => [k, $<HTMLInputElement>(`#chat-${k}`)!.checked])),
      };
      if (await sendForm(form, async () => void (await put('/chat', body)))) await draw(app, 'Team chat saved.', 'ok');
    } else if (form.id === 'tax-form') {
      if (await saveTaxMapping(form)) await draw(app, 'Tax mapping saved.', 'ok');
    } else if (form.id === 'meta-form') {
      if (await saveMetaPixel(form)) await draw(app, 'Meta pixel saved.', 'ok');
    }
  },
  async click(b, app) {
    const d = b.dataset;
    try {
      if (d.refresh) return await draw(app);
      if (d.acctConnect) {
        const { authorize_url } = await postJson<{ authorize_url: string }>(await api('/accounting/connect'), {});
        await draw(app);
        $('#acct-link')!.innerHTML =
          `<p><a id="acct-authorize" href="${h(authorize_url)}" target="_blank" rel="noopener">Approve the access at the accounting provider (opens a new tab)</a>, then press Refresh.</p>`;
        return $<HTMLAnchorElement>('#acct-authorize')!.focus();
      }
      if (d.acctDisconnect) {
        if (!(await press.confirmed('disconnect', 'button[data-acct-disconnect]', () => draw(app)))) return;
        await postJson(await api('/accounting/disconnect'), {});
        return await draw(
          app,
          'Accounting disconnected: the grant was revoked. Connect again to resume the sync.',
          'ok',
        );
      }
      if (d.acctTest) return said(await postJson(await api('/accounting/test'), {}), 'acct-test-out');
      if (d.chatTest) return said(await postJson(await api('/chat/test'), {}), 'chat-test-out');
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
