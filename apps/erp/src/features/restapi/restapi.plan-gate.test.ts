/**
 * The plan's API access decides whether a tenant's REST API works: a tenant without it cannot make
 * keys (PLAN_FEATURE_MISSING naming the plan that has it), and keys made before a downgrade stop
 * working from the next request on, until the plan has API access again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { apiKey, type RestHarness, startRestHarness } from '../../../test/support/restapi-harness.js';
import { runRestApiCli } from '../../restapi.cli.js';
import { composeCredentials } from '../../restapi.compose.js';

let h: RestHarness;
beforeAll(async () => {
  h = await startRestHarness();
});
afterAll(async () => h?.close());

const setPlan = (plan: string) => h.t.db.query('UPDATE tenants SET plan = $2 WHERE id = $1', [h.tenantId, plan]);
const partners = (key: string) =>
  h.app.inject({ url: '/restapi/1.0/object/res.partner', headers: { 'x-api-key': key } });

describe('API access by plan', () => {
  it("keeps a single-company install's REST API working: its default tenant is on Enterprise", async () => {
    const plan = await h.t.db.query<{ plan: string }>('SELECT plan FROM tenants WHERE id = $1', [h.tenantId]);
    expect(plan.rows[0]!.plan).toBe('enterprise');
    const { key } = await apiKey(h, 'read:res.partner');
    expect((await partners(key)).statusCode).toBe(200);
  });

  it('refuses requests with an existing key after a downgrade, and serves them again after an upgrade', async () => {
    const { key } = await apiKey(h, 'read:res.partner');
    await setPlan('starter');
    const r = await partners(key);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({
      code: 'PLAN_FEATURE_MISSING',
      feature: 'api_access',
      required_plan: 'professional',
    });
    await setPlan('professional');
    expect((await partners(key)).statusCode).toBe(200);
  });

  it('refuses to create a key for a tenant whose plan lacks API access, creating nothing', async () => {
    await setPlan('free');
    const before = await h.t.db.query('SELECT 1 FROM restapi_keys');
    await expect(apiKey(h, 'read:res.partner')).rejects.toMatchObject({
      code: 'PLAN_FEATURE_MISSING',
      details: { plan: 'free', required_plan: 'professional' },
    });
    const lines: string[] = [];
    const cli = runRestApiCli(
      ['key', 'create', '--login', 'admin', '--description', 'zapier', '--scope', 'read:res.partner'],
      composeCredentials(h.t.db, h.tenantId),
      async () => true,
      (l) => lines.push(l),
    );
    await expect(cli).rejects.toThrow(/^PLAN_FEATURE_MISSING: .*professional plan/);
    expect((await h.t.db.query('SELECT 1 FROM restapi_keys')).rowCount).toBe(before.rowCount);
    await setPlan('enterprise');
  });
});
