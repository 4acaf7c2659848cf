/**
 * What the Settings screens (Company, Developers, Domains, Branches, Integrations, Website, Payments, Customer messages, Team, Plan, Price grids, Suppliers, Audit log) share: their tabs, the tenant's API path, plan
 * refusals as sentences naming the plan, and the submit of a form whose 422 errors go beside its fields.
 */
import { ApiError } from '../field/api.js';
import { getSession } from '../field/store.js';
import { h } from '../shared/dom.js';
import { clearFieldErrors, explain, fieldProblems, say, showFieldErrors, summary } from './office-common.js';

const TABS: [string, string][] = [
  ['/office/settings/company', 'Company'],
  ['/office/settings/developers', 'Developers'],
  ['/office/settings/domains', 'Domains'],
  ['/office/settings/branches', 'Branches'],
  ['/office/settings/integrations', 'Integrations'],
  ['/office/settings/website', 'Website'],
  ['/office/settings/payments', 'Payments'],
  ['/office/settings/messages', 'Customer messages'],
  ['/office/settings/team', 'Team'],
  ['/office/settings/plan', 'Plan and usage'],
  ['/office/settings/price-grids', 'Price grids'],
  ['/office/settings/suppliers', 'Suppliers'],
  ['/office/settings/audit', 'Audit log'],
];

export const PLAN_NAMES: Record<string, string> = {
  free: 'Free',
  starter: 'Starter',
  professional: 'Professional',
  enterprise: 'Enterprise',
};
export const planName = (id: unknown) => PLAN_NAMES[String(id)] ?? String(id);

/** The settings' heading and tabs; the current tab carries aria-current. */
export function settingsHead(title: string): string {
  const links = TABS.map(
    ([href, label]) => `<a href="${href}"${location.pathname === href ? ' aria-current="page"' : ''}>${label}</a>`,
  ).join('');
  return `<h1>Settings: ${h(title)}</h1><nav aria-label="Settings" class="row settings-tabs">${links}</nav>`;
}

/** `/api/tenants/{id}` of the signed-in tenant, plus `rest`. */
export async function tenantApi(rest = ''): Promise<string> {
  const s = await getSession();
  return `/api/tenants/${encodeURIComponent(s!.tenant.id)}${rest}`;
}

const detail = (p: ApiError['problem'], key: string): unknown =>
  p[key] ?? (p.details as Record<string, unknown> | undefined)?.[key];

/**
 * A plan's refusal as a sentence naming the plan that allows it (PLAN_FEATURE_MISSING names
 * `required_plan`, PLAN_LIMIT_REACHED `upgrade_to`); undefined for any other answer.
 */
export function planRefusal(e: unknown): string | undefined {
  if (!(e instanceof ApiError)) return undefined;
  const p = e.problem;
  if (p.code === 'PLAN_FEATURE_MISSING')
    return `${p.detail ?? 'Your plan does not include this.'} The ${planName(detail(p, 'required_plan'))} plan unlocks it.`;
  if (p.code === 'PLAN_DOWNGRADE_BLOCKED')
    return `${p.detail ?? 'Your team does not fit that plan.'} (Settings → Team)`;
  if (p.code === 'PLAN_LIMIT_REACHED')
    return `${p.detail ?? 'Your plan’s limit is reached.'} The ${planName(detail(p, 'upgrade_to'))} plan allows more.`;
  return undefined;
}

/** The plan PLAN_FEATURE_MISSING names as the cheapest with the feature, by its name; else undefined. */
export function requiredPlan(e: unknown): string | undefined {
  if (!(e instanceof ApiError) || e.problem.code !== 'PLAN_FEATURE_MISSING') return undefined;
  return planName(detail(e.problem, 'required_plan'));
}

/** Any refusal as a sentence: the plan's if it is one, else the office's usual wording. */
export const refusal = (e: unknown) => planRefusal(e) ?? explain(e);

/**
 * Sends a form: clears its errors, runs `send`; a 422 puts each error beside its field (and the rest
 * in the message), any other refusal is said in the message. True when it was sent.
 */
export async function sendForm(
  form: HTMLFormElement,
  send: () => Promise<void>,
  msgId = 'office-msg',
): Promise<boolean> {
  clearFieldErrors(form);
  try {
    await send();
    return true;
  } catch (e) {
    const problems = fieldProblems(e);
    if (!problems.length) {
      if (!(e instanceof ApiError)) throw e;
      say(refusal(e), msgId, 'err');
      return false;
    }
    const rest = showFieldErrors(form, problems);
    say(summary(rest), msgId, 'err');
    form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    return false;
  }
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * A destructive button acts on its second press: the first arms it (the page redraws it as "Confirm: …"
 * and focus returns to it), the second answers true. One armed button per page.
 */
export class SecondPress {
  armed = '';

  async confirmed(key: string, button: string, redraw: () => Promise<void>): Promise<boolean> {
    if (this.armed === key) {
      this.armed = '';
      return true;
    }
    this.armed = key;
    await redraw();
    document.querySelector<HTMLButtonElement>(button)?.focus();
    return false;
  }
}
