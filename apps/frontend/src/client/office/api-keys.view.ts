/**
 * Settings → Developers → API keys as HTML: the tenant's REST API keys (description, scopes, created,
 * last used), the form to make one (description and scopes, the usual ones ticked), the key shown
 * once with a copy button, and revoke with a second press (GET /api/tenants/{id}/api-keys).
 */
import {
  API_KEY_SCOPE_CHOICES,
  type ApiKeyView,
  DEFAULT_API_KEY_SCOPES,
} from '@platform/contracts/console-settings.js';

import { h } from '../shared/dom.js';
import { errSlot } from './office-common.js';
import { when } from './settings-common.js';

const MODEL_NAMES: Record<string, string> = {
  'res.partner': 'contacts',
  'crm.lead': 'leads',
  'sale.order': 'orders and quotes',
  'product.product': 'products',
  'account.move': 'invoices',
};

/** `read:res.partner` → "Read contacts". */
export function scopeLabel(scope: string): string {
  const [op, model = ''] = scope.split(':');
  const what = MODEL_NAMES[model] ?? model;
  return `${op === 'write' ? 'Write' : op === 'read' ? 'Read' : op} ${what}`;
}

/** The new key with its copy button: the only time it is shown. */
export const newKeyHtml = (key: string, description: string) =>
  `<section class="card secret" aria-labelledby="key-h"><h3 id="key-h" style="margin-top:0">API key “${h(description)}”</h3>
<p><strong>Copy it now: it won't be shown again.</strong> Send it as the <code>X-API-Key</code> header to the REST API.</p>
<div class="row nowrap"><label class="visually-hidden" for="new-key">API key</label><input id="new-key" readonly value="${h(key)}"><button class="btn secondary" type="button" id="copy-key">Copy</button></div></section>`;

function keyHtml(k: ApiKeyView, armed: string): string {
  const name = h(k.description);
  const isArmed = armed === `revoke-key:${k.id}`;
  const revoke = k.revoked_at
    ? `<span class="pill">revoked ${h(when(k.revoked_at))}</span>`
    : `<button class="btn${isArmed ? '' : ' secondary'}" type="button" data-revoke-key="${k.id}">${
        isArmed
          ? `Confirm: revoke ${name} (apps using it stop at once)`
          : `Revoke<span class="visually-hidden"> ${name}</span>`
      }</button>`;
  return `<li class="card" data-key="${k.id}"><h3 style="margin:0" class="wrap-any">${name}</h3>
<div class="muted"><code>erpk_${h(k.prefix)}_…</code></div>
<div>${k.scopes.map((s) => `<span class="pill">${h(scopeLabel(s))}</span>`).join(' ')}</div>
<div>Created ${h(when(k.created_at))} · last used ${k.last_used_at ? h(when(k.last_used_at)) : 'never'}</div>
<div class="row" style="margin-top:.5rem">${revoke}</div></li>`;
}

const formHtml = () =>
  `<form id="api-key-form" class="card" novalidate><h3 style="margin-top:0">Make an API key</h3>
<label for="key-desc">Description (what uses it)</label><input id="key-desc" data-field="description" aria-describedby="key-desc-err" required maxlength="200" placeholder="Accounting sync">${errSlot('key-desc', 'description')}
<fieldset data-field="scopes" aria-describedby="key-scopes-err"><legend>What it may do</legend>${API_KEY_SCOPE_CHOICES.map(
    (s) =>
      `<label class="check"><input type="checkbox" name="scopes" value="${s}"${DEFAULT_API_KEY_SCOPES.includes(s) ? ' checked' : ''}> ${h(scopeLabel(s))}</label>`,
  ).join('')}</fieldset>${errSlot('key-scopes', 'scopes')}
<button class="btn" type="submit" style="margin-top:.5rem">Make key</button></form>`;

export function apiKeysHtml(keys: ApiKeyView[], opts: { armed?: string; made?: { key: string; description: string } }) {
  const list = keys.length
    ? `<ul class="plain">${keys.map((k) => keyHtml(k, opts.armed ?? '')).join('')}</ul>`
    : '<p class="card muted">No API keys yet. Make one for each app that calls your REST API.</p>';
  return `<section aria-labelledby="keys-h"><h2 id="keys-h">API keys</h2>
${opts.made ? newKeyHtml(opts.made.key, opts.made.description) : ''}${list}${formHtml()}</section>`;
}

/** On a plan without API access: what keys are for and which plan brings them. */
export const apiKeysLockedHtml = (plan: string) =>
  `<section class="card" aria-labelledby="keys-h"><h2 id="keys-h" style="margin-top:0">API keys</h2>
<p>API access comes with the ${h(plan)} plan: keys let your own software read and write your contacts, leads and orders through the REST API.</p></section>`;
