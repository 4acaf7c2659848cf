/**
 * The pages the control plane's invitation and password-reset emails link to. The token rides in
 * the URL fragment (never sent to a server, so never in a log); the account bundle reads it, drops
 * it from the address bar and posts it to /api/control.
 */
import type { Branding } from '../tenancy/branding.service.js';
import { esc } from './html.js';
import { page } from './layout.view.js';

const field = (id: string, label: string, attrs: string, hint = '') =>
  `<label for="${id}">${label}</label>${hint ? `<p id="${id}-hint" class="muted">${hint}</p>` : ''}
<input id="${id}" name="${id.replace(/^a-|^r-/, '')}" ${attrs} aria-describedby="${hint ? `${id}-hint ` : ''}${id}-err">
<p id="${id}-err" class="err" aria-live="polite"></p>`;

const pw = (prefix: string) =>
  field(
    `${prefix}-password`,
    'New password',
    'type="password" autocomplete="new-password" required minlength="10"',
    'At least 10 characters.',
  ) + field(`${prefix}-confirm`, 'Repeat the password', 'type="password" autocomplete="new-password" required');

export function acceptInvitationPage(branding: Branding, script: string): string {
  const body = `<h1>Join ${esc(branding.name)}</h1>
<form id="account-form" data-kind="invitation" class="card" novalidate>
${field('a-name', 'Your name', 'autocomplete="name" maxlength="100"', 'Leave empty if you already have an account with us: your name stays as it is.')}
${pw('a')}
<div class="row" style="margin-top:1rem"><button class="btn" type="submit">Accept the invitation</button></div>
</form><div id="account-msg" role="status" aria-live="polite"></div>`;
  return page({ branding, title: 'Accept invitation', body, script });
}

export function resetPasswordPage(branding: Branding, script: string): string {
  const body = `<h1>Choose a new password</h1>
<form id="account-form" data-kind="reset" class="card" novalidate>
${pw('r')}
<div class="row" style="margin-top:1rem"><button class="btn" type="submit">Change password</button></div>
</form><div id="account-msg" role="status" aria-live="polite"></div>`;
  return page({ branding, title: 'Reset password', body, script });
}
