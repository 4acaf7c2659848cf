/**
 * The office users' email API on the ERP host: REST credentials with admin:integrations; the
 * suppression list with the reason and whether it can be lifted; lifting a bounce but not a
 * complaint; the sending domain and its DNS records; template previews; clear 4xx problems.
 */
import { randomBytes } from 'node:crypto';

import { composeEmailAdmin, emailConfigDefaults, SuppressionService } from '@platform/email';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { adminApiCaller, apiKey, type RestHarness, startRestHarness } from '../../../test/support/restapi-harness.js';
import { composeErpApp } from '../../deps.js';

let h: RestHarness;
let app: FastifyInstance;
let admin: string;
let reader: string;

beforeAll(async () => {
  h = await startRestHarness();
  const box = createSecretBox(parseKeyring(`k:${randomBytes(32).toString('base64')}`));
  const emailAdmin = composeEmailAdmin(
    emailConfigDefaults({ EMAIL_PLATFORM_DOMAIN: 'platform.test' }),
    h.t.db,
    box,
    h.tenantId,
  );
  app = composeErpApp({ erp: h.embedded, restapi: h.deps, emailAdmin });
  admin = (await apiKey(h, 'admin:integrations')).key;
  reader = (await apiKey(h, 'read:res.partner')).key;
  const s = new SuppressionService(h.t.db);
  const ev = {
    provider: 'postmark',
    providerMessageId: undefined,
    tenantHint: undefined,
    inactive: true,
    detail: { description: 'mailbox unknown' },
  };
  await s.applyFeedback(h.tenantId, { ...ev, kind: 'hard_bounce', email: 'bounced@example.com', eventId: '1' });
  await s.applyFeedback(h.tenantId, { ...ev, kind: 'complaint', email: 'angry@example.com', eventId: '2' });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await h?.close();
});

const call = adminApiCaller(() => app, 'email');

describe('office email API', () => {
  it('needs a credential (401) with the admin:integrations scope (403)', async () => {
    expect((await call('GET', '/suppressions')).statusCode).toBe(401);
    expect((await call('GET', '/suppressions', reader)).json()).toMatchObject({ code: 'API_FORBIDDEN' });
  });

  it('shows why each address is suppressed, lifts a bounce and refuses to lift a complaint', async () => {
    const list = (await call('GET', '/suppressions', admin)).json() as {
      email: string;
      reason: string;
      liftable: boolean;
      provider: string;
    }[];
    expect(list.find((r) => r.email === 'bounced@example.com')).toMatchObject({
      reason: 'hard_bounce',
      provider: 'postmark',
      liftable: true,
    });
    expect(list.find((r) => r.email === 'angry@example.com')).toMatchObject({ reason: 'complaint', liftable: false });
    const refused = await call('POST', '/suppressions/lift', admin, { email: 'angry@example.com' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'EMAIL_SUPPRESSION_NOT_LIFTABLE' });
    const lifted = await call('POST', '/suppressions/lift', admin, { email: 'bounced@example.com', by: 'Sam Office' });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json()).toMatchObject({ email: 'bounced@example.com', lifted_by: 'Sam Office' });
    expect((await call('GET', '/suppressions?email=bounced@example.com', admin)).json()).toEqual([]);
    const bad = await call('POST', '/suppressions/lift', admin, { email: 'not-an-address' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0]).toMatchObject({ field: 'email' });
  });

  it('adds the sending domain with its DNS records, sets the sender and previews a template', async () => {
    const bad = await call('PUT', '/domain', admin, { domain: 'not a domain' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0]).toMatchObject({ field: 'domain', rule: 'format' });
    const added = await call('PUT', '/domain', admin, { domain: 'mail.brightview.test' });
    expect(added.statusCode).toBe(201);
    expect(added.json().records.map((r: { purpose: string }) => r.purpose)).toEqual(['spf', 'dkim', 'return_path']);
    expect(JSON.stringify((await call('GET', '/domain', admin)).json())).not.toContain('sealed');
    expect(
      (await call('PUT', '/sender', admin, { from_name: 'Brightview Blinds', reply_to: 'office@brightview.test' }))
        .statusCode,
    ).toBe(200);
    const preview = (await call('GET', '/preview/password_reset', admin)).json();
    // Not verified yet: the platform's domain, with the tenant's name and reply-to.
    expect(preview).toMatchObject({
      from: { address: 'no-reply@platform.test', name: 'Brightview Blinds' },
      reply_to: { address: 'office@brightview.test' },
    });
    expect((await call('GET', '/preview/nope', admin)).json()).toMatchObject({ code: 'EMAIL_TEMPLATE_UNKNOWN' });
  });
});
