/** The tenant's contact page: a helpdesk ticket form (name, email, subject, message). */
import type { Branding } from '../tenancy/branding.service.js';
import { esc } from './html.js';
import { page } from './layout.view.js';

export function contactPage(
  branding: Branding,
  tenant: { id: string },
  script: string,
  captcha: { scriptUrl: string; siteKey: string },
): string {
  const reach = [
    branding.phone
      ? `<li>Phone: <a href="tel:${esc(branding.phone.replace(/[^+\d]/g, ''))}">${esc(branding.phone)}</a></li>`
      : '',
    branding.email ? `<li>Email: <a href="mailto:${esc(branding.email)}">${esc(branding.email)}</a></li>` : '',
    branding.address ? `<li>${esc(branding.address)}</li>` : '',
  ].join('');
  const form = branding.helpdeskEnabled
    ? `<form id="contact-form" class="card" novalidate>
<label for="c-name">Name</label><input id="c-name" name="name" autocomplete="name" required maxlength="100">
<label for="c-email">Email</label><input id="c-email" name="email" type="email" autocomplete="email" required maxlength="254">
<label for="c-subject">Subject</label><input id="c-subject" name="subject" required maxlength="200">
<label for="c-desc">How can we help?</label><textarea id="c-desc" name="description" required maxlength="5000"></textarea>
<div class="row" style="margin-top:.75rem"><button class="btn" type="submit">Send</button></div>
<p id="c-msg" role="status"></p></form>`
    : '';
  const body = `<h1>Contact ${esc(branding.name)}</h1>${reach ? `<ul>${reach}</ul>` : ''}${form}`;
  return page({
    branding,
    title: 'Contact',
    body,
    script,
    dataset: { tenantId: tenant.id, captchaSrc: captcha.scriptUrl, captchaKey: captcha.siteKey },
    noindex: false,
  });
}
