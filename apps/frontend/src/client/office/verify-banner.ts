/**
 * Under the office's header bar while the signed-in person's email address is not verified (a
 * self-serve sign-up): what to do, and a button that emails the link again. Sending quotes and
 * inviting are refused until then (EMAIL_NOT_VERIFIED).
 */
import { call, postJson } from '../field/api.js';
import type { Session } from '../field/types.js';
import { h } from '../shared/dom.js';

export async function showVerifyBanner(s: Session | undefined): Promise<void> {
  const old = document.getElementById('verify-banner');
  if (!s) return void old?.remove();
  const me = await call<{ email_verified?: boolean }>('/auth/me').catch(() => undefined);
  // Says what was decided (tests wait on it rather than on time).
  document.body.dataset.emailVerified = String(me?.email_verified !== false);
  if (!me || me.email_verified !== false) return void old?.remove();
  if (old) return;
  const banner = document.createElement('div');
  banner.id = 'verify-banner';
  banner.className = 'card';
  banner.setAttribute('role', 'region');
  banner.setAttribute('aria-label', 'Verify your email');
  banner.innerHTML = `<p><strong>Check your email to verify your address</strong> (${h(
    s.user.email,
  )}). Until then you can set up your company, but not send quotes or invite your team.</p>
<div class="row"><button class="btn secondary" id="verify-resend" type="button">Send the link again</button></div>
<p id="verify-resend-msg" role="status" aria-live="polite"></p>`;
  document.getElementById('office-bar')?.after(banner);
  banner.querySelector('#verify-resend')!.addEventListener('click', async () => {
    const out = banner.querySelector('#verify-resend-msg')!;
    const r = await postJson<{ sent: boolean }>('/auth/verify-email/resend', {}).catch(() => undefined);
    out.textContent = !r
      ? 'The link could not be sent just now (at most three an hour): please try again later.'
      : r.sent
        ? `We sent a new link to ${s.user.email}. Open the newest email.`
        : 'Your address is verified already.';
    if (r && !r.sent) banner.remove();
  });
}
