/** Settings → Plan and usage: usage against limits, plans side by side, and what a downgrade needs. */
import { describe, expect, it } from 'vitest';

import { overLimits, type PlanAnswer, planHtml, type PlanSummary } from './plan.view.js';

const features = (on: string[]) =>
  Object.fromEntries(['pdf_reports', 'custom_branding', 'api_access'].map((k) => [k, on.includes(k)]));
const free: PlanSummary = {
  id: 'free',
  name: 'Free',
  prices: { monthly: 0, yearly: 0 },
  limits: { users: 2, technicians: 1, jobs_per_month: 20 },
  features: features(['pdf_reports']),
};
const professional: PlanSummary = {
  id: 'professional',
  name: 'Professional',
  prices: { monthly: 99, yearly: 950 },
  limits: { users: 15, technicians: 10, jobs_per_month: 500 },
  features: features(['pdf_reports', 'custom_branding', 'api_access']),
};
const answer: PlanAnswer = {
  plan: 'professional',
  name: 'Professional',
  limits: professional.limits,
  usage: { users: 4, technicians: 2, jobs_this_month: 7 },
  plans: [free, professional],
};

describe('what a plan the usage does not fit needs', () => {
  it('names how many users and technicians to remove first', () => {
    expect(overLimits(free, answer.usage)).toBe(
      'Your usage does not fit the Free plan: remove 2 users and 1 technician first (Settings → Team).',
    );
  });

  it('says nothing when the usage fits', () => {
    expect(overLimits(professional, answer.usage)).toBe('');
    expect(overLimits(free, { users: 2, technicians: 1, jobs_this_month: 20 })).toBe('');
  });

  it("mentions this month's jobs past the plan's monthly jobs", () => {
    expect(overLimits(free, { users: 1, technicians: 0, jobs_this_month: 25 })).toBe(
      "Your usage does not fit the Free plan: this month's 25 jobs are more than its 20.",
    );
  });
});

describe('the Plan and usage screen', () => {
  it('shows the usage against the limits and says no payment is taken here', () => {
    const html = planHtml(answer, true);
    expect(html).toContain('<strong>Users</strong>: 4 of 15');
    expect(html).toContain('<strong>Jobs this month</strong>: 7 of 500');
    expect(html).toContain('No payment is taken for the plan here');
  });

  it("sets every plan's price and features side by side, the current one marked", () => {
    const html = planHtml(answer, true);
    expect(html).toContain('<strong>$99</strong> a month, or $950 a year');
    expect(html).toMatch(/Free.*✗ API access and outbound webhooks/s);
    expect(html).toContain('<li>2 users</li><li>1 technician</li><li>20 jobs a month</li>');
    expect(html).toMatch(/Professional <span class="pill">your plan<\/span>/);
    const small = planHtml({ ...answer, usage: { users: 2, technicians: 1, jobs_this_month: 30 } }, true);
    expect(small).toMatch(/data-plan="free">Switch to Free/); // jobs over a limit never block a switch
    expect(html).not.toContain('data-plan="professional"');
  });

  it('offers a switch to owners only', () => {
    const html = planHtml(answer, false);
    expect(html).not.toContain('data-plan=');
    expect(html).toContain('Only the company’s owner can change the plan.');
  });

  it('says what to remove for a plan the team does not fit, and offers no switch to it', () => {
    expect(planHtml(answer, true)).toContain('remove 2 users and 1 technician first');
    expect(planHtml(answer, true)).not.toContain('data-plan="free"');
  });
});
