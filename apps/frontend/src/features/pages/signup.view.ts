/**
 * The platform's sign-up page (a new company and its owner) and the page the verification email
 * links to. The account bundle drives both: the live slug check, errors beside the fields, the
 * verification token read from the URL fragment.
 */
import type { Branding } from '../tenancy/branding.service.js';
import { page } from './layout.view.js';

const field = (id: string, label: string, attrs: string, hint = '') =>
  `<label for="${id}">${label}</label>${hint ? `<p id="${id}-hint" class="muted">${hint}</p>` : ''}
<input id="${id}" name="${id.slice(2)}" ${attrs} aria-describedby="${hint ? `${id}-hint ` : ''}${id}-err">
<p id="${id}-err" class="err" aria-live="polite"></p>`;

export function signupPage(
  branding: Branding,
  script: string,
  captcha: { scriptUrl: string; siteKey: string },
  tenantsHost: string,
): string {
  const body = `<h1>Sign up your company</h1>
<p>Free plan: two users and one technician, twenty jobs a month. Upgrade any time.</p>
<form id="signup-form" class="card" novalidate>
${field('s-company_name', 'Company name', 'autocomplete="organization" required maxlength="100"')}
${field('s-slug', 'Your address', 'required maxlength="48" autocapitalize="none" spellcheck="false" pattern="[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"', 'Lower-case letters, digits and hyphens: your site will be <span id="s-host">…</span>.')}
${field('s-owner_name', 'Your name', 'autocomplete="name" required maxlength="100"')}
${field('s-email', 'Email', 'type="email" autocomplete="email" required maxlength="254"', 'We send a link to verify it.')}
${field('s-password', 'Password', 'type="password" autocomplete="new-password" required minlength="10" maxlength="256"', 'At least 10 characters.')}
<div class="row" style="margin-top:1rem"><button class="btn" type="submit">Create my company</button></div>
</form><div id="signup-msg" role="status" aria-live="polite"></div>`;
  return page({
    branding,
    title: 'Sign up',
    body,
    script,
    dataset: { captchaSrc: captcha.scriptUrl, captchaKey: captcha.siteKey, tenantsHost },
    noindex: false,
  });
}

export function verifyEmailPage(branding: Branding, script: string): string {
  const body = `<h1>Verify your email</h1><div id="verify-msg" role="status" aria-live="polite"><p class="muted">Checking your link…</p></div>`;
  return page({ branding, title: 'Verify your email', body, script });
}
