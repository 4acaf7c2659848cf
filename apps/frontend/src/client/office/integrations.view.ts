/**
 * Settings → Integrations as HTML: the accounting connection, SMS and team chat, each with its state
 * in a sentence, its form (errors beside the fields) and "Send a test" whose outcome shows in the
 * section's own status line. Secrets are never drawn: the API gives none back.
 */
import type { IntegrationsView } from '@platform/contracts/integrations.js';

import { h } from '../shared/dom.js';
import { errSlot } from './office-common.js';
import { when } from './settings-common.js';

export const CHAT_FLAGS: [keyof IntegrationsView['chat'] & `enable_${string}`, string][] = [
  ['enable_fsm', 'Field service: a job changes stage'],
  ['enable_sales', 'Sales: an order is confirmed'],
  ['enable_invoice', 'Invoices: an invoice is posted'],
  ['enable_po', 'Purchasing: a purchase order is confirmed'],
];

const field = (id: string, name: string, label: string, attrs = '') =>
  `<label for="${id}">${label}</label><input id="${id}" data-field="${name}" aria-describedby="${id}-err"${attrs}>${errSlot(id, name)}`;
const H3 = 'style="margin:1.25rem 0 .25rem"';
const outcome = (id: string) => `<p id="${id}" role="status" aria-live="polite"></p>`;
const button = (data: string, label: string, primary = false, armed = false) =>
  `<button class="btn${primary || armed ? '' : ' secondary'}" type="button" data-${data}="1">${armed ? `Confirm: ${label.toLowerCase()}` : label}</button>`;

function accountingSentence(a: IntegrationsView['accounting']): string {
  const name = a.name ? `“${a.name}”` : 'The connection';
  const error = a.last_error ? ` ${a.last_error}` : '';
  switch (a.state) {
    case 'not_configured':
      return 'No accounting connection is set up for your company yet: your platform operator registers the accounting app, then you connect it here.';
    case 'connected':
      return `Connected to ${a.organisation ?? 'the accounting provider'}. Last sync: ${a.last_sync_at ? when(a.last_sync_at) : 'nothing synced yet'}.`;
    case 'connecting':
      return `Connecting: approve the access at the accounting provider, then press Refresh.${error}`;
    case 'needs_reconnect':
      return `${name} needs connecting again.${error}`;
    default:
      return `${name} is not connected.${error}`;
  }
}

function accountingHtml(a: IntegrationsView['accounting'], armed: string): string {
  const attention = a.needs_attention
    ? `<p class="err">${a.needs_attention} invoice${a.needs_attention === 1 ? ' needs' : 's need'} attention in the ERP.</p>`
    : '';
  const actions =
    a.state === 'not_configured'
      ? ''
      : `<div class="row">${a.state === 'connected' ? button('acct-disconnect', 'Disconnect', false, armed === 'disconnect') : button('acct-connect', 'Connect', true)}${button('acct-test', 'Send a test')}${button('refresh', 'Refresh')}</div>`;
  return `<section class="card" aria-labelledby="acct-h"><h2 id="acct-h" style="margin-top:0">Accounting</h2>
<p id="acct-state"><span class="pill">${h(a.state.replace('_', ' '))}</span> ${h(accountingSentence(a))}</p>${attention}${actions}
<div id="acct-link"></div>${outcome('acct-test-out')}</section>`;
}

function smsHtml(s: IntegrationsView['sms']): string {
  const line = s.lines.find((l) => l.is_default);
  const from = line ? `Texts go out from +${line.phone_number}.` : 'Add a phone line to send texts.';
  const state = s.configured
    ? `SMS is set up (API key ${s.api_key ?? ''}). ${from}`
    : 'SMS is not set up: enter the credentials of your SMS provider account.';
  const lines = s.lines.length
    ? `<ul class="plain" id="sms-lines">${s.lines.map((l) => `<li style="margin:.25rem 0"><strong>${h(l.name)}</strong> <span class="wrap-any">+${h(l.phone_number)}</span> · ${h(l.type)}${l.is_default ? ' <span class="pill">default</span>' : ''}</li>`).join('')}</ul>`
    : '';
  const hook = s.webhook_url
    ? `<p class="muted">Register this URL for notices at your provider: <code class="wrap-any">${h(s.webhook_url)}</code></p>`
    : '';
  const credentials = s.configured ? 'Replace the credentials' : 'Credentials';
  return `<section class="card" aria-labelledby="sms-h"><h2 id="sms-h" style="margin-top:0">SMS</h2>
<p id="sms-state">${h(state)}</p>${hook}
${s.lines.length ? `<h3 ${H3}>Lines</h3>${lines}` : ''}
<form id="sms-test-form" novalidate><h3 ${H3}>Send a test</h3>
${field('sms-to', 'to', 'Send a test text to', ' type="tel" autocomplete="tel" required')}
<button class="btn secondary" type="submit" style="margin-top:.5rem">Send a test text</button></form>${outcome('sms-test-out')}
<form id="line-form" novalidate><h3 ${H3}>Add a phone line</h3>
${field('line-name', 'name', 'Name', ' autocomplete="off" required')}
${field('line-phone', 'phone_number', 'Phone number', ' type="tel" autocomplete="off" required')}
<label for="line-type">Used for</label><select id="line-type" data-field="line_type" aria-describedby="line-type-err"><option value="sales">Sales</option><option value="support">Support</option><option value="operations">Operations</option></select>${errSlot('line-type', 'line_type')}
<label class="check"><input type="checkbox" id="line-default"> Make it the default line</label>
<button class="btn secondary" type="submit" style="margin-top:.5rem">Add line</button></form>
<form id="sms-form" novalidate><h3 ${H3}>${credentials}</h3>
${field('sms-key', 'api_key', 'API key', ' autocomplete="off" required')}
${field('sms-secret', 'api_secret', 'API secret', ' type="password" autocomplete="new-password" required')}
${field('sms-base', 'webhook_base_url', 'Public address of your ERP (where the provider posts notices)', ` type="url" value="${h(s.webhook_base_url ?? '')}" required`)}
${field('sms-whsec', 'webhook_secret', 'Webhook secret (optional, at least 16 characters)', ' type="password" autocomplete="new-password"')}
<button class="btn" type="submit" style="margin-top:.5rem">Save SMS credentials</button></form></section>`;
}

function chatHtml(c: IntegrationsView['chat']): string {
  const on = CHAT_FLAGS.filter(([k]) => c[k]).map(([, l]) => l.split(':')[0]!.toLowerCase());
  const state = c.configured
    ? `Team chat posts to ${c.webhook_origin}: ${on.length ? on.join(', ') : 'no events (every one is off)'}.`
    : 'Team chat is not set up: paste the incoming-webhook URL of your chat space.';
  const flags = CHAT_FLAGS.map(
    ([k, l]) => `<label class="check"><input type="checkbox" id="chat-${k}"${c[k] ? ' checked' : ''}> ${h(l)}</label>`,
  ).join('');
  return `<section class="card" aria-labelledby="chat-h"><h2 id="chat-h" style="margin-top:0">Team chat</h2>
<p id="chat-state">${h(state)}</p>
<form id="chat-form" novalidate>
${field('chat-url', 'webhook_url', c.configured ? 'Incoming-webhook URL (leave empty to keep the current one)' : 'Incoming-webhook URL', ' type="url" autocomplete="off"')}
<fieldset><legend>Post a message when</legend>${flags}</fieldset>
<button class="btn" type="submit" style="margin-top:.5rem">Save team chat</button></form>
<div class="row" style="margin-top:.5rem">${c.configured ? button('chat-test', 'Send a test') : ''}</div>${outcome('chat-test-out')}</section>`;
}

/** `taxMapping`: the accounting's tax mapping section, drawn right after the accounting. */
export const integrationsHtml = (v: IntegrationsView, armed: string, taxMapping = '') =>
  `${accountingHtml(v.accounting, armed)}${taxMapping}${smsHtml(v.sms)}${chatHtml(v.chat)}`;
