/** The contact form: posts a helpdesk ticket for this host's tenant, once (Idempotency-Key per form fill). */
import { captchaToken, loadCaptcha } from '@platform/web/captcha-client.js';

import { $, uuid } from '../shared/dom.js';

const form = $<HTMLFormElement>('#contact-form');
let key = uuid();
// The bot-check script loads on first use of the form, never on page load.
form?.addEventListener('focusin', () => void loadCaptcha().catch(() => undefined), { once: true });

form?.addEventListener('submit', async (e) => {
  e.preventDefault();
  const msg = $('#c-msg')!;
  const fields = ['name', 'email', 'subject', 'description'] as const;
  const values = Object.fromEntries(
    fields.map((f) => [f, (form.elements.namedItem(f) as HTMLInputElement).value.trim()]),
  );
  const missing = fields.filter((f) => !values[f] || (f === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values[f]!)));
  for (const f of fields)
    (form.elements.namedItem(f) as HTMLElement).setAttribute('aria-invalid', String(missing.includes(f)));
  if (missing.length) {
    msg.className = 'err';
    msg.textContent = `Please fill in: ${missing.join(', ')}.`;
    return;
  }
  msg.className = 'muted';
  msg.textContent = 'Sending…';
  let r: Response | undefined;
  try {
    r = await fetch('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ ...values, captcha_token: await captchaToken('contact') }),
    });
  } catch {
    r = undefined;
  }
  if (r?.ok) {
    key = uuid();
    form.innerHTML = '<p class="ok">Thank you: we got your message and will answer by email.</p>';
    return;
  }
  const problem = r ? ((await r.json().catch(() => ({}))) as { detail?: string }) : {};
  msg.className = 'err';
  msg.textContent = r
    ? (problem.detail ?? 'We could not send your message. Please try again.')
    : 'No connection: please try again.';
});
