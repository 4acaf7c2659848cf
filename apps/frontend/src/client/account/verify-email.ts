/**
 * `/verify-email#token=…`: posts the token (read from the fragment, then dropped from the address
 * bar) and says whether the address is verified now, or what to do when the link is no longer valid.
 */
import { $ } from '../shared/dom.js';

const box = $('#verify-msg');

async function verify(token: string): Promise<void> {
  const r = await fetch('/api/control/auth/verify-email', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  }).catch(() => undefined);
  if (r?.ok) {
    box!.className = 'ok';
    box!.innerHTML =
      '<p>Your email address is verified. You can now send quotes and invite your team.</p><p><a href="/office/leads">Go to the office</a></p>';
    return;
  }
  box!.className = 'err';
  box!.innerHTML = !r
    ? '<p>No connection: reload the page to try again.</p>'
    : '<p>This verification link is no longer valid: links work once and expire after 48 hours. Sign in and use “Send the link again” in the office, then open the newest email.</p><p><a href="/office/leads">Go to the office</a></p>';
}

if (box) {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  void verify(token);
}
