/**
 * /api/lp/meta-capi per tenant host: a tenant that set its own pixel and Conversions API token gets
 * its events queued (the worker sends them with its credentials); a tenant without its own queues
 * nothing even though the platform's META_* are set; the platform's own host keeps using those.
 */
import { randomBytes } from 'node:crypto';

import { withTenant } from '@platform/db';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { setWebsiteTracking } from '@platform/website';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';

let h: TestLanding;
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startTestLanding({
    TENANTS_HOST: 'tenants.test',
    META_PIXEL_ID: '999999999999',
    META_ACCESS_TOKEN: 'platform-capi-token',
  });
  for (const slug of ['alpha', 'beta'])
    ids[slug] = (
      await h.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ($1, $1) RETURNING id`, [slug])
    ).rows[0]!.id;
  const box = createSecretBox(parseKeyring(`k1:${randomBytes(32).toString('base64')}`));
  await withTenant(h.db, ids.alpha!, (tx) =>
    setWebsiteTracking(tx, box, ids.alpha!, { meta_pixel_id: '111111111111', meta_capi_token: 'alpha-capi-token' }),
  );
  await withTenant(h.db, ids.beta!, (tx) => setWebsiteTracking(tx, box, ids.beta!, { meta_pixel_id: '222222222222' }));
}, 60_000);
afterAll(() => h?.close());

const send = async (host: string, eventId: string) => {
  const r = await h.landing.app.inject({
    method: 'POST',
    url: '/api/lp/meta-capi',
    headers: { host, 'content-type': 'application/json' },
    payload: { event_name: 'Lead', event_id: eventId, event_source_url: `https://${host}/` },
  });
  return r.json() as { queued: boolean; reason?: string };
};
const queuedFor = async (tenantId: string) =>
  (
    await h.db.query<{ payload: { eventId: string } }>(
      `SELECT payload FROM outbox WHERE topic = 'conversions.lead' AND tenant_id = $1`,
      [tenantId],
    )
  ).rows.map((r) => r.payload.eventId);

describe('Conversions API events per tenant host', () => {
  it('queues the event of a tenant with its own pixel and token, under that tenant', async () => {
    expect(await send('alpha.tenants.test', 'evt-alpha-0001')).toEqual({ queued: true });
    expect(await queuedFor(ids.alpha!)).toEqual(['evt-alpha-0001']);
  });

  it("queues nothing for a tenant without its own token, though the platform's are set", async () => {
    expect(await send('beta.tenants.test', 'evt-beta-0001')).toEqual({ queued: false, reason: 'not_configured' });
    expect(await queuedFor(ids.beta!)).toEqual([]);
  });

  it("keeps the platform's META_* credentials for the platform's own host", async () => {
    expect(await send('localhost', 'evt-platform-01')).toEqual({ queued: true });
  });
});
