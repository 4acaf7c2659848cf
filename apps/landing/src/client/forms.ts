/**
 * Posts every `form[data-endpoint]` as JSON with the bot-check token in the body, shows the
 * backend's problem+json errors next to their inputs, a success state, and never double-submits.
 */
import { captchaToken, loadCaptcha } from '@platform/web/captcha-client.js';

import { checkForm } from './checks.js';
import { fieldMessage, FORM_MESSAGES, formMessage } from './messages.js';

interface FieldError {
  field?: string;
  rule?: string;
}
interface Problem {
  code?: string;
  errors?: FieldError[];
}

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export function serialize(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const products: string[] = [];
  for (const el of Array.from(form.elements) as Control[]) {
    if (!el.name || el.disabled) continue;
    if (el instanceof HTMLInputElement && el.type === 'checkbox') {
      if (el.checked) products.push(el.value);
      continue;
    }
    const v = el.value.trim();
    if (v !== '') body[el.name] = v;
  }
  if (products.length) body.products = products;
  // The popup's trigger is only known at runtime; it is appended to the page's template value here,
  // at submit time, so the served HTML carries the authored value and the trigger lives in one place.
  const suffix = form.dataset.sourceSuffix;
  if (suffix && typeof body.form_source === 'string') body.form_source += suffix;
  return body;
}

function clearErrors(form: HTMLFormElement): void {
  form.querySelectorAll<HTMLElement>('.field-error').forEach((e) => {
    e.hidden = true;
    e.textContent = '';
  });
  form.querySelectorAll('[aria-invalid]').forEach((e) => {
    e.removeAttribute('aria-invalid');
    e.removeAttribute('aria-describedby');
  });
  const alert = form.querySelector<HTMLElement>('.form-alert');
  if (alert) {
    alert.hidden = true;
    alert.textContent = '';
  }
}

function hideError(input: Element): void {
  const out = document.getElementById(input.getAttribute('aria-describedby') ?? '');
  if (out) {
    out.hidden = true;
    out.textContent = '';
  }
  input.removeAttribute('aria-invalid');
  input.removeAttribute('aria-describedby');
}

/** Words every error from catalogue messages.ts (the API's own messages are for developers). */
function showErrors(form: HTMLFormElement, problem: Problem | null, status: number): void {
  const unplaced: string[] = [];
  for (const err of problem?.errors ?? []) {
    const msg = fieldMessage(err.field ?? '', err.rule ?? '');
    const box = err.field ? form.querySelector<HTMLElement>(`[data-field="${CSS.escape(err.field)}"]`) : null;
    const out = box?.querySelector<HTMLElement>('.field-error');
    const input = box?.querySelector<HTMLElement>('input, textarea, select');
    if (!box || !out || !input) {
      if (!unplaced.includes(msg)) unplaced.push(msg);
      continue;
    }
    if (!out.textContent?.includes(msg)) out.textContent = out.textContent ? `${out.textContent} ${msg}` : msg;
    out.hidden = false;
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', out.id);
  }
  // The first invalid input in page order, not in the order the errors came.
  const first = form.querySelector<HTMLElement>('[aria-invalid="true"]');
  const alert = form.querySelector<HTMLElement>('.form-alert');
  const general = unplaced.length
    ? unplaced.join(' ')
    : first
      ? FORM_MESSAGES.fix!
      : formMessage(problem?.code, status, document.body.dataset.phone ?? '');
  if (alert) {
    alert.textContent = general;
    alert.hidden = false;
  }
  (first ?? alert)?.focus?.();
}

async function submit(form: HTMLFormElement, onSuccess: (form: HTMLFormElement) => void): Promise<void> {
  if (form.dataset.busy === '1') return;
  clearErrors(form);
  const issues = checkForm(form);
  if (issues.length) return showErrors(form, { errors: issues }, 422);
  form.dataset.busy = '1';
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
  if (button) button.disabled = true;
  form.setAttribute('aria-busy', 'true');
  let done = false;
  try {
    const body = serialize(form);
    body.captcha_token = await captchaToken(form.dataset.action ?? 'estimate');
    let res: Response | null = null;
    try {
      res = await fetch(form.dataset.endpoint!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, application/problem+json' },
        body: JSON.stringify(body),
      });
    } catch {
      res = null;
    }
    if (res?.ok) {
      done = true;
      const success = form.parentElement?.querySelector<HTMLElement>('.form-success');
      form.hidden = true;
      if (success) {
        success.hidden = false;
        success.focus();
      }
      onSuccess(form);
      return;
    }
    const problem = res ? ((await res.json().catch(() => null)) as Problem | null) : null;
    showErrors(form, problem, res?.status ?? 0);
  } finally {
    form.removeAttribute('aria-busy');
    if (!done) {
      delete form.dataset.busy;
      if (button) button.disabled = false;
    }
  }
}

export function initForms(onSuccess: (form: HTMLFormElement) => void): void {
  const warm = (e: Event): void => {
    if ((e.target as Element | null)?.closest?.('form[data-endpoint]')) loadCaptcha().catch(() => undefined);
  };
  document.addEventListener('focusin', warm);
  document.addEventListener('pointerdown', warm, { passive: true });
  // Editing a field the visitor was told to fix takes its message away.
  document.addEventListener('input', (e) => {
    const t = e.target as Element;
    if (t.getAttribute?.('aria-invalid') === 'true') hideError(t);
  });
  document.addEventListener('submit', (e) => {
    const form = (e.target as Element).closest<HTMLFormElement>('form[data-endpoint]');
    if (!form) return;
    e.preventDefault();
    void submit(form, onSuccess);
  });
}
