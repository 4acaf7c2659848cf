/**
 * Settings → Developers as HTML: the outbound webhook endpoints, the form to add one, the signing
 * secret shown once, and an endpoint's delivery log (GET /api/tenants/{id}/webhooks…). The API keys
 * below them are api-keys.view.ts's.
 */
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '@platform/contracts/webhook.js';

import { h } from '../shared/dom.js';
import { errSlot } from './office-common.js';
import { when } from './settings-common.js';

export interface DeliveryLog {
  endpointId: string;
  items: WebhookDeliveryView[];
  page: number;
  pageSize: number;
  total: number;
}

const host = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** The secret of a new or rotated endpoint, with a copy button; it is never shown again. */
export const secretHtml = (secret: string, what: string) =>
  `<section class="card secret" aria-labelledby="secret-h"><h2 id="secret-h" style="margin-top:0">Signing secret ${h(what)}</h2>
<p><strong>Copy it now: it won't be shown again.</strong> Your receiver verifies each delivery's <code>webhook-signature</code> with it (Standard Webhooks).</p>
<div class="row nowrap"><label class="visually-hidden" for="new-secret">Signing secret</label><input id="new-secret" readonly value="${h(secret)}"><button class="btn secondary" type="button" id="copy-secret">Copy</button></div></section>`;

const deliveryItem = (d: WebhookDeliveryView) =>
  `<li class="delivery"><div><strong>${h(d.event_type)}</strong> <span class="pill">${h(d.status)}</span></div>
<div class="muted wrap-any">${h(d.webhook_id)}</div>
<div>${d.attempts} attempt${d.attempts === 1 ? '' : 's'} · response ${d.last_status_code ?? '—'} · ${
    d.last_duration_ms === null ? '—' : `${d.last_duration_ms} ms`
  } · ${h(when(d.last_attempt_at ?? d.created_at))}</div>${d.last_error ? `<div class="muted">${h(d.last_error)}</div>` : ''}
<button class="btn secondary" type="button" data-replay="${d.id}">Replay<span class="visually-hidden"> ${h(d.event_type)} ${h(d.webhook_id)}</span></button></li>`;

function logHtml(log: DeliveryLog): string {
  if (!log.items.length) return '<p class="muted">No deliveries yet: events this endpoint takes show here.</p>';
  const pages = Math.max(1, Math.ceil(log.total / log.pageSize));
  return `<ul class="plain deliveries">${log.items.map(deliveryItem).join('')}</ul>
<div class="row"><button class="btn secondary" type="button" data-log-page="${log.page - 1}"${log.page <= 1 ? ' disabled' : ''}>Newer</button><span>Page ${log.page} of ${pages}</span><button class="btn secondary" type="button" data-log-page="${log.page + 1}"${log.page >= pages ? ' disabled' : ''}>Older</button></div>`;
}

function endpointHtml(e: WebhookEndpointView, armed: string, log: DeliveryLog | undefined): string {
  const state = e.enabled
    ? 'Enabled'
    : e.disabled_reason === 'gone'
      ? 'Disabled (the receiver answered 410 Gone)'
      : 'Disabled';
  const confirm = (action: string, label: string, confirmLabel: string) =>
    `<button class="btn${armed === `${action}:${e.id}` ? '' : ' secondary'}" type="button" data-${action}="${h(e.id)}">${
      armed === `${action}:${e.id}` ? confirmLabel : label
    }<span class="visually-hidden"> ${h(host(e.url))}</span></button>`;
  return `<li class="card" data-endpoint="${h(e.id)}"><h3 style="margin-top:0" class="wrap-any">${h(host(e.url))}</h3>
<div class="muted wrap-any">${h(e.url)}</div>${e.description ? `<div>${h(e.description)}</div>` : ''}
<div>Events: ${e.events.map((x) => `<span class="pill">${h(x)}</span>`).join(' ')}</div>
<div>${state} · added ${h(when(e.created_at))}</div>
<div class="row" style="margin-top:.5rem"><button class="btn secondary" type="button" data-toggle="${h(e.id)}" data-enable="${e.enabled ? 'false' : 'true'}">${e.enabled ? 'Disable' : 'Enable'}<span class="visually-hidden"> ${h(host(e.url))}</span></button>
${confirm('rotate', 'Rotate secret', 'Confirm: rotate (the old secret stops at once)')}
${confirm('delete', 'Delete', 'Confirm: delete this endpoint and its log')}
<button class="btn secondary" type="button" data-log="${h(e.id)}" aria-expanded="${log ? 'true' : 'false'}">Delivery log</button></div>
${log ? `<section aria-label="Delivery log of ${h(host(e.url))}"><h4>Delivery log</h4>${logHtml(log)}</section>` : ''}</li>`;
}

const addFormHtml = () =>
  `<form id="webhook-form" class="card" novalidate><h2 style="margin-top:0">Add an endpoint</h2>
<label for="wh-url">Receiver URL (https)</label><input id="wh-url" type="url" data-field="url" aria-describedby="wh-url-help wh-url-err" placeholder="https://example.com/webhooks" required maxlength="2000">
<p class="muted" id="wh-url-help">A public https address. On a local install (npm start) an http address on this computer, such as http://127.0.0.1:9000/hooks, is allowed for trying it out.</p>${errSlot('wh-url', 'url')}
<fieldset data-field="events" aria-describedby="wh-events-err"><legend>Events</legend>${WEBHOOK_EVENT_TYPES.map(
    (t, i) =>
      `<label class="check"><input type="checkbox" name="events" value="${t}"${i === 0 ? ' checked' : ''}> ${t}</label>`,
  ).join('')}</fieldset>${errSlot('wh-events', 'events')}
<label for="wh-desc">Description (optional)</label><input id="wh-desc" data-field="description" aria-describedby="wh-desc-err" maxlength="200">${errSlot('wh-desc', 'description')}
<button class="btn" type="submit" style="margin-top:.5rem">Add endpoint</button></form>`;

export function developersHtml(
  endpoints: WebhookEndpointView[],
  opts: {
    msg?: string;
    kind?: 'ok' | 'err' | '';
    secret?: string;
    secretFor?: string;
    armed?: string;
    log?: DeliveryLog;
  },
): string {
  const list = endpoints.length
    ? `<ul class="plain">${endpoints.map((e) => endpointHtml(e, opts.armed ?? '', opts.log?.endpointId === e.id ? opts.log : undefined)).join('')}</ul>`
    : '<p class="card muted">No endpoints yet. Add one below: the platform then sends it a signed POST for each event it takes.</p>';
  return `<p id="office-msg" role="status" class="${opts.kind ?? ''}">${h(opts.msg ?? '')}</p>
${opts.secret ? secretHtml(opts.secret, opts.secretFor ?? '') : ''}
<h2>Webhook endpoints</h2>${list}${addFormHtml()}`;
}
