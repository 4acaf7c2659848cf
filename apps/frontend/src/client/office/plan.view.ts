/**
 * The HTML of Settings → Plan and usage: the current plan and its usage against the limits, every
 * plan side by side (prices, limits, features) and, for owners, a switch per plan. A plan the usage
 * does not fit says what to remove first, and switching to it asks for a second press.
 */
import { h } from '../shared/dom.js';

type Limits = { users: number | null; technicians: number | null; jobs_per_month: number | null };
export interface PlanSummary {
  id: string;
  name: string;
  prices: { monthly: number; yearly: number };
  limits: Limits;
  features: Record<string, boolean>;
}
export interface PlanAnswer {
  plan: string;
  name: string;
  limits: Limits;
  usage: { users: number; technicians: number; jobs_this_month: number };
  plans: PlanSummary[];
}

const FEATURE_NAMES: [string, string][] = [
  ['pdf_reports', 'PDF reports'],
  ['custom_branding', 'Custom branding (logo, colours)'],
  ['api_access', 'API access and outbound webhooks'],
  ['advanced_reports', 'Advanced reports'],
  ['multi_location', 'Several locations'],
  ['recurring_jobs', 'Recurring jobs'],
  ['inventory', 'Inventory'],
];

const cap = (n: number | null) => (n === null ? 'unlimited' : String(n));
const usd = (n: number) => `$${n.toLocaleString('en-US')}`;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
const seats = (n: number | null, one: string) => (n === null ? `unlimited ${one}s` : plural(n, one));

/**
 * What the tenant must remove before `plan` fits its usage (users and technicians; jobs this month
 * only wait for next month), as a sentence; '' when it fits.
 */
export function overLimits(plan: PlanSummary, usage: PlanAnswer['usage']): string {
  const over: string[] = [];
  const { users, technicians, jobs_per_month: jobs } = plan.limits;
  if (users !== null && usage.users > users) over.push(plural(usage.users - users, 'user'));
  if (technicians !== null && usage.technicians > technicians)
    over.push(plural(usage.technicians - technicians, 'technician'));
  const parts: string[] = [];
  if (over.length) parts.push(`remove ${over.join(' and ')} first (Settings → Team)`);
  if (jobs !== null && usage.jobs_this_month > jobs)
    parts.push(`this month's ${usage.jobs_this_month} jobs are more than its ${jobs}`);
  return parts.length ? `Your usage does not fit the ${plan.name} plan: ${parts.join('; ')}.` : '';
}

/** Whether the team (users, technicians) fits `plan`: the API refuses a change to one it does not fit. */
export const teamFits = (plan: PlanSummary, usage: PlanAnswer['usage']) =>
  (plan.limits.users === null || usage.users <= plan.limits.users) &&
  (plan.limits.technicians === null || usage.technicians <= plan.limits.technicians);

const meter = (label: string, used: number, max: number | null) => {
  const full = max !== null && used >= max;
  return `<li><strong>${label}</strong>: ${used} of ${cap(max)}${full ? ' <span class="pill">limit reached</span>' : ''}</li>`;
};

function planCard(p: PlanSummary, a: PlanAnswer, canChange: boolean): string {
  const current = p.id === a.plan;
  const misfit = current ? '' : overLimits(p, a.usage);
  const features = FEATURE_NAMES.map(
    ([k, label]) =>
      `<li>${p.features[k] ? '✓' : '✗'} ${label}<span class="visually-hidden">: ${p.features[k] ? 'included' : 'not included'}</span></li>`,
  ).join('');
  const button =
    !canChange || current || !teamFits(p, a.usage)
      ? ''
      : `<button class="btn secondary" type="button" data-plan="${h(p.id)}">Switch to ${h(p.name)}</button>`;
  return `<li class="card"${current ? ' aria-current="true"' : ''}><h3 style="margin-top:0">${h(p.name)}${current ? ' <span class="pill">your plan</span>' : ''}</h3>
<p><strong>${usd(p.prices.monthly)}</strong> a month, or ${usd(p.prices.yearly)} a year</p>
<ul class="plain"><li>${seats(p.limits.users, 'user')}</li><li>${seats(p.limits.technicians, 'technician')}</li><li>${seats(p.limits.jobs_per_month, 'job')} a month</li></ul>
<ul class="plain">${features}</ul>${misfit ? `<p class="err">${h(misfit)}${teamFits(p, a.usage) ? '' : ' <a href="/office/settings/team">Open Team</a>'}</p>` : ''}${button}</li>`;
}

/** The screen's body below its heading. */
export function planHtml(a: PlanAnswer, canChange: boolean): string {
  const change = canChange
    ? 'Switching is immediate. A plan your team does not fit can be chosen once you have removed the members it names; if this month’s jobs are over a plan’s limit, new jobs wait for next month.'
    : 'Only the company’s owner can change the plan.';
  return `<section class="card" aria-labelledby="usage-h"><h2 id="usage-h" style="margin-top:0">Your plan: ${h(a.name)}</h2>
<ul class="plain">${meter('Users', a.usage.users, a.limits.users)}${meter('Technicians', a.usage.technicians, a.limits.technicians)}${meter('Jobs this month', a.usage.jobs_this_month, a.limits.jobs_per_month)}</ul>
<p class="muted">No payment is taken for the plan here: changing it changes the limits and features at once, and billing is arranged separately.</p></section>
<h2>Compare plans</h2><p>${change}</p><ul class="plain settings-plans">${a.plans.map((p) => planCard(p, a, canChange)).join('')}</ul>`;
}
