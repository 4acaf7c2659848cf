/**
 * /office/settings/developers: outbound webhook endpoints (add with the secret shown once, enable or
 * disable, rotate the secret, delete) and each endpoint's delivery log with Replay; then the REST API
 * keys (api-keys.section.ts). Rotate, delete and revoke ask for a second press. A plan without
 * api_access gets the API's sentence naming the plan instead, for both.
 */
import type { ApiKeyCreated, ApiKeyView } from '@platform/contracts/console-settings.js';
import type {
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from '@platform/contracts/webhook.js';

import { call, postJson } from '../field/api.js';
import { $, h, uuid } from '../shared/dom.js';
import { clickKey, loadKeys, submitKey } from './api-keys.section.js';
import { apiKeysHtml, apiKeysLockedHtml } from './api-keys.view.js';
import { type DeliveryLog, developersHtml } from './developers.view.js';
import { say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import {
  planRefusal,
  refusal,
  requiredPlan,
  SecondPress,
  sendForm,
  settingsHead,
  tenantApi,
} from './settings-common.js';

const LOG_PAGE_SIZE = 10;
/** Rotate and delete act on a second press (`rotate:<id>`, `delete:<id>`). */
const press = new SecondPress();
let log: DeliveryLog | undefined;

const hooks = async (rest = '') => tenantApi(`/webhooks${rest}`);
const send = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call<T>(path, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function loadLog(endpointId: string, page: number): Promise<DeliveryLog> {
  const r = await call<{ items: WebhookDeliveryView[]; total: number }>(
    await hooks(`/${encodeURIComponent(endpointId)}/deliveries?page=${page}&page_size=${LOG_PAGE_SIZE}`),
  );
  return { endpointId, items: r.items, page, pageSize: LOG_PAGE_SIZE, total: r.total };
}

type DrawOpts = Parameters<typeof developersHtml>[1] & { made?: ApiKeyCreated };

async function draw(app: HTMLElement, opts: DrawOpts = {}): Promise<void> {
  let endpoints: WebhookEndpointView[];
  let keys: ApiKeyView[];
  try {
    [endpoints, keys] = await Promise.all([
      call<{ items: WebhookEndpointView[] }>(await hooks('?page_size=100')).then((r) => r.items),
      loadKeys(),
    ]);
  } catch (e) {
    const why = planRefusal(e);
    if (!why) throw e;
    app.innerHTML = `${settingsHead('Developers')}<section class="card" aria-labelledby="locked-h"><h2 id="locked-h" style="margin-top:0">Webhooks</h2><p id="office-msg" role="status">${h(why)}</p><p>With it, your integrators get a signed notice of each new lead, sent quote, accepted quote and job, with a delivery log and replay.</p></section>${apiKeysLockedHtml(requiredPlan(e) ?? 'a higher')}`;
    return;
  }
  if (log) log = await loadLog(log.endpointId, log.page);
  const { made, ...rest } = opts;
  app.innerHTML =
    settingsHead('Developers') +
    developersHtml(endpoints, { ...rest, armed: press.armed, log }) +
    apiKeysHtml(keys, { armed: press.armed, ...(made ? { made } : {}) });
}

export const developersPage: OfficePage = {
  async show(app, msg = '') {
    press.armed = '';
    log = undefined;
    await draw(app, { msg });
  },
  async submit(form, app) {
    if (await submitKey(form, (o) => draw(app, o))) return;
    if (form.id !== 'webhook-form') return;
    const url = $<HTMLInputElement>('#wh-url', form)!.value.trim();
    const events = Array.from(form.querySelectorAll<HTMLInputElement>('input[name=events]:checked'), (c) => c.value);
    const description = $<HTMLInputElement>('#wh-desc', form)!.value.trim();
    let made: WebhookEndpointWithSecret | undefined;
    const sent = await sendForm(form, async () => {
      made = await postJson<WebhookEndpointWithSecret>(await hooks(), {
        url,
        events,
        ...(description ? { description } : {}),
      });
    });
    if (!sent || !made) return;
    await draw(app, { msg: 'Endpoint added.', kind: 'ok', secret: made.secret, secretFor: 'of the new endpoint' });
    $<HTMLInputElement>('#new-secret')?.focus();
  },
  async click(b, app) {
    if (await clickKey(b, press, (o) => draw(app, o))) return;
    const { toggle, rotate, delete: del, log: logFor, logPage, replay } = b.dataset;
    if (b.id === 'copy-secret') {
      const secret = $<HTMLInputElement>('#new-secret')!.value;
      await navigator.clipboard?.writeText(secret).catch(() => undefined);
      $<HTMLInputElement>('#new-secret')!.select();
      return say('Secret copied.', 'office-msg', 'ok');
    }
    try {
      if (toggle) {
        const enabled = b.dataset.enable === 'true';
        await send('PATCH', await hooks(`/${encodeURIComponent(toggle)}`), { enabled });
        press.armed = '';
        return draw(app, {
          msg: enabled ? 'Endpoint enabled.' : 'Endpoint disabled: it is sent nothing until enabled.',
          kind: 'ok',
        });
      }
      for (const [action, id] of [
        ['rotate', rotate],
        ['delete', del],
      ] as const) {
        if (!id) continue;
        const button = `button[data-${action}="${CSS.escape(id)}"]`;
        if (!(await press.confirmed(`${action}:${id}`, button, () => draw(app)))) return;
        if (action === 'delete') {
          await send('DELETE', await hooks(`/${encodeURIComponent(id)}`));
          if (log?.endpointId === id) log = undefined;
          return draw(app, { msg: 'Endpoint deleted.', kind: 'ok' });
        }
        const r = await postJson<WebhookEndpointWithSecret>(
          await hooks(`/${encodeURIComponent(id)}/rotate-secret`),
          {},
        );
        await draw(app, {
          msg: 'Secret rotated: the old one no longer signs.',
          kind: 'ok',
          secret: r.secret,
          secretFor: '(new)',
        });
        return $<HTMLInputElement>('#new-secret')?.focus();
      }
      if (logFor) {
        log =
          log?.endpointId === logFor
            ? undefined
            : { endpointId: logFor, items: [], page: 1, pageSize: LOG_PAGE_SIZE, total: 0 };
        await draw(app);
        return $<HTMLButtonElement>(`button[data-log="${CSS.escape(logFor)}"]`)?.focus();
      }
      if (logPage && log) {
        log.page = Number(logPage);
        return draw(app);
      }
      if (replay && log) {
        const r = await postJson<{ webhook_id: string }>(
          await hooks(`/${encodeURIComponent(log.endpointId)}/deliveries/${encodeURIComponent(replay)}/replay`),
          {},
          { 'idempotency-key': uuid() },
        );
        log.page = 1;
        return draw(app, { msg: `Replay queued: ${r.webhook_id} will be sent again.`, kind: 'ok' });
      }
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
