/**
 * The sign-up page: the slug follows the company name until edited and is checked live (available,
 * or why not); errors appear as sentences beside their fields; on success the owner is signed in
 * (the session the office uses) and lands in the office, where a banner asks to verify the email.
 */
import { captchaToken, loadCaptcha } from '@platform/web/captcha-client.js';

import { $, h } from '../shared/dom.js';
import { keepSignIn } from './signed-in.js';

const form = $<HTMLFormElement>('#signup-form');
const msg = $('#signup-msg');
const FIELDS = ['company_name', 'slug', 'owner_name', 'email', 'password'] as const;
const input = (n: string) => $<HTMLInputElement>(`#s-${n}`)!;

interface Problem {
  code?: string;
  detail?: string;
  field?: string;
  errors?: { field: string; rule?: string; message?: string }[];
}

function setError(name: string, text: string): boolean {
  const el = $<HTMLInputElement>(`#s-${name}`);
  if (!el) return false;
  el.setAttribute('aria-invalid', String(Boolean(text)));
  $(`#s-${name}-err`)!.textContent = text;
  return true;
}

/** "Acme Blinds & Shutters" → "acme-blinds-shutters" (at most 48 characters). */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 48)
    .replace(/^-+|-+$/g, '');

const REASONS: Record<string, string> = {
  syntax: 'Use lower-case letters, digits and hyphens (not at the start or end), at most 48.',
  reserved: 'This address is reserved: please choose another.',
  taken: 'Another company has this address: please choose another.',
};

let slugEdited = false;
let checkTimer: ReturnType<typeof setTimeout> | undefined;
async function checkSlug(): Promise<void> {
  const slug = input('slug').value.trim();
  $('#s-host')!.textContent = `${slug || 'your-company'}.${document.body.dataset.tenantsHost ?? ''}`;
  if (!slug) return void setError('slug', '');
  const r = await fetch(`/api/control/signup/slug-availability?slug=${encodeURIComponent(slug)}`).catch(() => null);
  if (!r?.ok || input('slug').value.trim() !== slug) return;
  const a = (await r.json()) as { available: boolean; reason?: string };
  setError('slug', a.available ? '' : (REASONS[a.reason ?? ''] ?? 'This address cannot be used.'));
}
const scheduleCheck = () => {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => void checkSlug(), 300);
};

function fail(html: string): void {
  msg!.className = 'err';
  msg!.innerHTML = html;
}

function showProblem(status: number, p: Problem): void {
  if (p.code === 'EMAIL_TAKEN') {
    setError('email', 'This email already has an account: sign in instead, or use another address.');
    return fail('<p>Please correct the fields marked above.</p>');
  }
  if (p.code === 'TENANT_SLUG_TAKEN') {
    setError('slug', REASONS.taken!);
    return fail('<p>Please correct the fields marked above.</p>');
  }
  if (status === 422 && p.errors?.length) {
    const text = (e: { rule?: string; message?: string }) =>
      e.rule === 'reserved' ? REASONS.reserved! : `This ${e.message ?? 'is not valid'}.`;
    const other = p.errors.filter((e) => !setError(e.field, text(e))).map((e) => `${e.field}: ${text(e)}`);
    return fail(`<p>Please correct the fields marked above.${h(other.length ? ` ${other.join(' ')}` : '')}</p>`);
  }
  if (status === 429)
    return fail('<p>Too many sign-ups from your network just now: please wait a minute and try again.</p>');
  fail(`<p>${h(p.detail ?? 'Something went wrong. Please try again.')}</p>`);
}

if (form) {
  form.addEventListener('focusin', () => void loadCaptcha().catch(() => undefined), { once: true });
  input('company_name').addEventListener('input', () => {
    if (slugEdited) return;
    input('slug').value = slugOf(input('company_name').value);
    scheduleCheck();
  });
  input('slug').addEventListener('input', () => {
    slugEdited = true;
    scheduleCheck();
  });
  void checkSlug();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const v = Object.fromEntries(FIELDS.map((n) => [n, n === 'password' ? input(n).value : input(n).value.trim()]));
    const errs: Record<string, string> = {
      company_name: v.company_name ? '' : 'Enter your company name.',
      slug: v.slug ? ($(`#s-slug-err`)!.textContent ?? '') : 'Choose an address for your site.',
      owner_name: v.owner_name ? '' : 'Enter your name.',
      email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email ?? '') ? '' : 'Enter an email address such as you@example.com.',
      password: (v.password ?? '').length >= 10 ? '' : 'Use at least 10 characters.',
    };
    for (const [n, t] of Object.entries(errs)) setError(n, t);
    const first = FIELDS.find((n) => errs[n]);
    if (first) return input(first).focus();
    msg!.className = 'muted';
    msg!.textContent = 'Creating your company…';
    const r = await fetch('/api/control/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...v, captcha_token: await captchaToken('signup') }),
    }).catch(() => undefined);
    if (!r) return fail('<p>No connection: please try again.</p>');
    if (!r.ok) return showProblem(r.status, (await r.json().catch(() => ({}))) as Problem);
    const answer = (await r.json()) as { office_url?: string; refresh_token: string };
    const office = answer.office_url ? new URL(answer.office_url, location.href) : undefined;
    // The company's office is on its own host: hand the sign-in over there (field/api.ts adoptHandoff).
    if (office && office.origin !== location.origin)
      return location.assign(`${office.origin}/office/leads#handoff=${encodeURIComponent(answer.refresh_token)}`);
    await keepSignIn(new Response(JSON.stringify(answer)));
    location.assign('/office/leads');
  });
}
