/**
 * The first-run checklist ticks itself from what the company did (settings, a saved grid, a technician,
 * a custom domain), names the plan that brings branding, and is the asking tenant's own.
 */
import { withTenant } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

let kit: ControlKit;
beforeAll(async () => {
  kit = await startControlKit();
});
afterAll(async () => kit?.close());

const call = (token: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  kit.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
const checklist = async (t: { id: string; token: string }) => {
  const r = await call(t.token, 'GET', `/api/tenants/${t.id}/setup-checklist`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { items: { id: string; done: boolean; href: string; requires_plan?: string }[]; done: number };
};
const doneIds = (c: Awaited<ReturnType<typeof checklist>>) => c.items.filter((i) => i.done).map((i) => i.id);

describe('the first-run checklist', () => {
  it('starts empty, names Starter for branding on Free, and ticks each item as it is done', async () => {
    const t = await kit.tenant('setup-free');
    const first = await checklist(t);
    expect(first.items.map((i) => i.id)).toEqual([
      'company',
      'branding',
      'price_grid',
      'technician',
      'domain',
      'integrations',
    ]);
    expect(first.done).toBe(0);
    expect(first.items.find((i) => i.id === 'branding')).toMatchObject({ requires_plan: 'starter' });

    const settings = await call(t.token, 'PUT', `/api/tenants/${t.id}/settings`, {
      company_name: 'Setup Blinds',
      phone: '720-555-0100',
      address: '1 Main St, Denver CO 80202',
    });
    expect(settings.statusCode, settings.body).toBe(200);
    await kit.member(t.id, 'technician');
    const domain = await call(t.token, 'POST', `/api/tenants/${t.id}/domains`, { domain: 'www.setup-blinds.test' });
    expect(domain.statusCode, domain.body).toBeLessThan(300);
    await withTenant(kit.deps.db, t.id, (tx) =>
      kit.deps.audit.record(tx, {
        tenantId: t.id,
        actor: { kind: 'user', id: t.owner.userId },
        action: 'sales.price_grid.put',
        target: { type: 'price_grid', id: 'roller-shade' },
      }),
    );
    expect(doneIds(await checklist(t))).toEqual(['company', 'price_grid', 'technician', 'domain']);
  });

  it('ticks branding once a plan with it has a logo and a colour', async () => {
    const t = await kit.tenant('setup-pro', 'professional');
    const c = await checklist(t);
    expect(c.items.find((i) => i.id === 'branding')).not.toHaveProperty('requires_plan');
    const put = await call(t.token, 'PUT', `/api/tenants/${t.id}/settings`, {
      logo_url: 'https://cdn.example.com/logo.png',
      primary_color: '#1A4D8F',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(doneIds(await checklist(t))).toEqual(['branding']);
  });

  it("is each tenant's own: another tenant's id is not found, and technicians are refused", async () => {
    const a = await kit.tenant('setup-a');
    const b = await kit.tenant('setup-b');
    expect((await call(b.token, 'GET', `/api/tenants/${a.id}/setup-checklist`)).statusCode).toBe(404);
    const tech = await kit.member(a.id, 'technician');
    expect((await call(tech.token, 'GET', `/api/tenants/${a.id}/setup-checklist`)).statusCode).toBe(403);
  });
});
