/**
 * Accept an invitation / choose a new password. The token comes from the URL fragment (it never
 * reaches a server log) and is removed from the address bar as soon as it is read, so it is not left
 * in history or shared by a copied URL. An accepted invitation signs the person in like the field login.
 * The same bundle serves the sign-up page (signup.ts) and the email verification page (verify-email.ts).
 */
import './signup.js';
import './verify-email.js';

import { $, h } from '../shared/dom.js';
import { keepSignIn } from './signed-in.js';

const form = $<HTMLFormElement>('#account-form');
const msg = $('#account-msg')!;
const kind = form?.dataset.kind;
const p = kind === 'invitation' ? 'a' : 'r';
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
if (location.hash) history.replaceState(null, '', location.pathname + location.search);

interface Problem {
  code?: string;
  detail?: string;
  errors?: { field: string; rule?: string; message?: string }[];
}

function fail(html: string): void {
  msg.className = 'err';
  msg.innerHTML = html;
}

const INVALID: Record<string, string> = {
  invitation: `<p>This invitation is no longer valid; ask for a new one. Invitations work once and expire after 7 days: ask the person who invited you to send a new invitation.</p>`,
  reset: `<p>This password reset link is no longer valid: links work once and expire after an hour. Ask for a new reset link and use the newest email we send you, or <a href="/field/login">sign in</a> if you remember your password.</p>`,
};

function setError(name: string, text: string): void {
  const input = $<HTMLInputElement>(`#${p}-${name}`);
  if (!input) return;
  input.setAttribute('aria-invalid', String(Boolean(text)));
  $(`#${p}-${name}-err`)!.textContent = text;
}

if (form && !token) {
  fail(INVALID[kind!]!);
  form.hidden = true;
}

form?.addEventListener('submit', async (e) => {
  e.preventDefault();
  const value = (n: string) => ($<HTMLInputElement>(`#${p}-${n}`)?.value ?? '').trim();
  const password = $<HTMLInputElement>(`#${p}-password`)!.value;
  const errs: Record<string, string> = {
    name: value('name').length > 100 ? 'Use at most 100 characters.' : '',
    password: password.length < 10 ? 'Use at least 10 characters.' : '',
    confirm: $<HTMLInputElement>(`#${p}-confirm`)!.value !== password ? 'The two passwords differ.' : '',
  };
  for (const [n, t] of Object.entries(errs)) setError(n, t);
  const first = Object.keys(errs).find((n) => errs[n] && $(`#${p}-${n}`));
  if (first) {
    $<HTMLInputElement>(`#${p}-${first}`)!.focus();
    return;
  }
  msg.className = 'muted';
  msg.textContent = 'Sending…';
  const body =
    kind === 'invitation'
      ? { token, password, ...(value('name') ? { name: value('name') } : {}) }
      : { token, password };
  const path = kind === 'invitation' ? '/auth/invitations/accept' : '/auth/password-reset/confirm';
  let r: Response | undefined;
  try {
    r = await fetch(`/api/control${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    r = undefined;
  }
  if (!r) return fail('<p>No connection: please try again.</p>');
  if (r.ok && kind === 'invitation') {
    const role = await keepSignIn(r);
    location.assign(role === 'technician' ? '/field/jobs' : '/office/leads');
    return;
  }
  if (r.ok) {
    form.hidden = true;
    msg.className = 'ok';
    msg.innerHTML = '<p>Password changed. <a href="/field/login">Sign in</a> with your new password.</p>';
    return;
  }
  const problem = (await r.json().catch(() => ({}))) as Problem;
  if (r.status === 404) {
    form.hidden = true;
    return fail(INVALID[kind!]!);
  }
  if (r.status === 422 && problem.errors?.length) {
    const text = (e: { rule?: string; message?: string }) => e.message ?? `Breaks the rule: ${e.rule ?? 'invalid'}.`;
    for (const e of problem.errors) setError(e.field, text(e));
    const other = problem.errors.filter((e) => !$(`#${p}-${e.field}`)).map((e) => `${e.field}: ${text(e)}`);
    return fail(`<p>Please correct the fields marked above.${h(other.length ? ` ${other.join(' ')}` : '')}</p>`);
  }
  fail(`<p>${h(problem.detail ?? 'Something went wrong. Please try again.')}</p>`);
});
