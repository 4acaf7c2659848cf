/**
 * What every office page shares: human messages for the control plane's problem+json answers,
 * field errors shown under their inputs, money, and the tenant's technicians.
 */
import { ApiError, call, OfflineError } from '../field/api.js';
import { getSession } from '../field/store.js';
import { $, h } from '../shared/dom.js';
import { formatMoney, tenantCurrency, toMinor } from '../shared/money.js';

export interface FieldProblem {
  field: string;
  rule?: string;
  message?: string;
}

export interface Technician {
  id: string;
  name: string;
}

/** The problem's `errors` (422), or none. */
export const fieldProblems = (e: unknown): FieldProblem[] =>
  e instanceof ApiError && Array.isArray(e.problem.errors) ? (e.problem.errors as FieldProblem[]) : [];

const issueText = (p: FieldProblem) => p.message ?? `breaks the rule ${p.rule ?? 'invalid'}`;

/** A problem+json answer (or no answer) as a sentence an office user can act on. */
export function explain(e: unknown): string {
  if (e instanceof OfflineError) return 'No connection, or the server is busy: try again.';
  if (!(e instanceof ApiError)) return String(e);
  const { code, detail } = e.problem;
  if (code === 'JOB_CONFLICT')
    return 'Someone else changed this job meanwhile: the board now shows their version and nothing was overwritten. Try again if it is still needed.';
  if (code === 'ROLE_FORBIDDEN') return 'Your role may not do this.';
  if (code === 'IDEMPOTENCY_KEY_REUSED')
    return 'This form was already sent with other details, and that quote was recorded (see Quotes). Reload the page to start a new one.';
  if (code === 'PORTAL_DISABLED') return 'The customer portal is turned off in the company settings.';
  const fields = fieldProblems(e).map((p) => `${p.field}: ${issueText(p)}`);
  if (fields.length) return `Please correct: ${fields.join('; ')}.`;
  return detail && detail !== code ? detail : `Refused (HTTP ${e.status}${code ? `, ${code}` : ''}).`;
}

/** Clears every field error in `root`. */
export function clearFieldErrors(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>('[data-err-for]').forEach((el) => (el.textContent = ''));
  root.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
}

/**
 * Shows each error under the input whose `data-field` is its field (`lines.1.width_in`) and answers
 * those the page has no input for, so they can be listed in the form's summary instead.
 */
export function showFieldErrors(root: ParentNode, problems: FieldProblem[]): FieldProblem[] {
  const rest: FieldProblem[] = [];
  for (const p of problems) {
    const out = root.querySelector<HTMLElement>(`[data-err-for="${CSS.escape(p.field)}"]`);
    if (!out) {
      rest.push(p);
      continue;
    }
    out.textContent = issueText(p);
    root.querySelector(`[data-field="${CSS.escape(p.field)}"]`)?.setAttribute('aria-invalid', 'true');
  }
  return rest;
}

/** The summary line of a refused form, naming errors that have no input of their own. */
export function summary(rest: FieldProblem[]): string {
  return `Please correct the fields marked below.${rest.length ? ` ${rest.map((p) => `${p.field}: ${issueText(p)}`).join('; ')}.` : ''}`;
}

/** An error slot under an input, tied to it by aria-describedby. */
export const errSlot = (id: string, field: string) =>
  `<span class="err" id="${h(id)}-err" data-err-for="${h(field)}"></span>`;

/** An amount in major units (as the ERP answers it) in the tenant's currency. */
export const money = (amount: number): string => {
  const currency = tenantCurrency();
  return formatMoney(toMinor(amount, currency), currency);
};

/**
 * The tenant's technicians (`GET /api/tenants/{id}/technicians`, which office staff may read, unlike
 * the members list): every one of them, so a job can go to a technician who has no jobs yet.
 */
export async function technicians(): Promise<Technician[]> {
  const s = await getSession();
  const r = await call<{ items: Technician[] }>(`/api/tenants/${encodeURIComponent(s!.tenant.id)}/technicians`);
  return r.items;
}

/** Sets the page's message (an aria-live region) without redrawing the page. */
export function say(text: string, id = 'office-msg', kind: 'ok' | 'err' | '' = ''): void {
  const el = $(`#${id}`);
  if (!el) return;
  el.className = kind;
  el.textContent = text;
}
