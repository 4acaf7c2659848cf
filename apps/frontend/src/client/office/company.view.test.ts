/** What Settings → Company says of colours and which plan unlocks branding. */
import { describe, expect, it } from 'vitest';

import { unlockingPlan } from './company.page.js';
import { contrastSentence } from './company.view.js';

const plan = (id: string, monthly: number, custom_branding: boolean) => ({
  id,
  name: id[0]!.toUpperCase() + id.slice(1),
  prices: { monthly, yearly: monthly * 10 },
  limits: { users: null, technicians: null, jobs_per_month: null },
  features: { custom_branding },
});

describe('the Company screen', () => {
  it('names the cheapest plan having custom_branding, whatever order the list is in', () => {
    const plans = [plan('professional', 99, true), plan('free', 0, false), plan('starter', 29, true)];
    expect(unlockingPlan(plans)).toBe('Starter');
    expect(unlockingPlan([plan('free', 0, false)])).toBeUndefined();
  });

  it('says a main colour white text cannot be read on cannot be saved, and a dark one is enough', () => {
    expect(contrastSentence('primary_color', '#ffd700')).toEqual({
      ok: false,
      text: expect.stringMatching(/only 1\.\d:1; it needs at least 4\.5:1.*cannot be saved/),
    });
    expect(contrastSentence('primary_color', '#1f4e79')).toMatchObject({ ok: true });
  });

  it('says a background too dark for the text falls back to a neutral grey', () => {
    expect(contrastSentence('secondary_color', '#f4f6f8').ok).toBe(true);
    expect(contrastSentence('secondary_color', '#333333')).toMatchObject({
      ok: false,
      text: expect.stringContaining('neutral light grey'),
    });
  });
});
