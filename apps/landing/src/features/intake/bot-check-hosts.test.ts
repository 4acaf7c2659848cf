/**
 * The local bot check on a tenant's hosts (embedded defaults): a form sent on `<slug>.tenants.localhost`
 * or on the tenant's active custom domain passes with a token minted on that host; a token from a
 * foreign host is still refused. And CAPTCHA_ALLOWED_HOSTNAMES takes `*.example.com` wildcards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';
import { landingEnvSchema } from '../../config.js';

let h: TestLanding;

beforeAll(async () => {
  h = await startTestLanding({ DEDUPE_WINDOW_SECONDS: '0' });
  const acme = (
    await h.db.query<{ id: string }>(
      `INSERT INTO tenants (slug, name, site_name) VALUES ('acme', 'Acme Ltd', 'Acme Shades') RETURNING id`,
    )
  ).rows[0]!.id;
  await h.db.query(
    `INSERT INTO tenant_domains (tenant_id, domain, domain_type, ssl_status) VALUES ($1, 'www.acme-shades.example', 'custom', 'active')`,
    [acme],
  );
});
afterAll(() => h?.close());

async function estimateOn(host: string, tokenHost: string) {
  const token = await h.token('estimate', { hostname: tokenHost });
  return h.landing.app.inject({
    method: 'POST',
    url: '/api/estimate',
    headers: { host, 'content-type': 'application/json' },
    payload: { name: 'Ann Lee', phone: '3035550100', captcha_token: token },
  });
}

describe("the local bot check on a tenant's hosts", () => {
  it('accepts an estimate sent on the tenant subdomain with a token minted there', async () => {
    const r = await estimateOn('acme.tenants.localhost:8001', 'acme.tenants.localhost');
    expect(r.statusCode).toBe(201);
    expect(r.headers['x-tenant-slug']).toBe('acme');
  });

  it("accepts an estimate on the tenant's active custom domain with a token minted there", async () => {
    const r = await estimateOn('www.acme-shades.example', 'www.acme-shades.example');
    expect(r.statusCode).toBe(201);
    expect(r.headers['x-tenant-slug']).toBe('acme');
  });

  it('refuses a token minted on a foreign host, on the subdomain and on the custom domain alike', async () => {
    const before = await h.count('submissions');
    for (const host of ['acme.tenants.localhost', 'www.acme-shades.example']) {
      const r = await estimateOn(host, 'evil.example.net');
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ code: 'CAPTCHA_REJECTED', reason: 'wrong_hostname' });
    }
    // A custom domain admits tokens from itself only, not from some other unlisted name.
    const r = await estimateOn('www.acme-shades.example', 'www.other-shades.example');
    expect(r.json()).toMatchObject({ code: 'CAPTCHA_REJECTED', reason: 'wrong_hostname' });
    expect(await h.count('submissions')).toBe(before);
  });
});

describe('CAPTCHA_ALLOWED_HOSTNAMES', () => {
  const parse = (v: string) => landingEnvSchema.safeParse({ CAPTCHA_ALLOWED_HOSTNAMES: v });

  it('takes exact names and *.example.com wildcards', () => {
    const r = parse('www.example.com, *.Example.com,localhost');
    expect(r.success && r.data.CAPTCHA_ALLOWED_HOSTNAMES).toEqual(['www.example.com', '*.example.com', 'localhost']);
  });

  it.each(['*', '*.com', 'www.*.example.com', 'https://www.example.com'])('refuses %s, naming the variable', (v) => {
    const r = parse(v);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain('CAPTCHA_ALLOWED_HOSTNAMES');
  });

  it('a wildcard entry admits tokens from its subdomains, not from the bare domain', async () => {
    const own = await startTestLanding({
      CAPTCHA_ALLOWED_HOSTNAMES: '*.example.com,localhost',
      DEDUPE_WINDOW_SECONDS: '0',
    });
    try {
      const send = async (tokenHost: string) =>
        own.post('/api/estimate', {
          name: 'Ann Lee',
          phone: '3035550100',
          captcha_token: await own.token('estimate', { hostname: tokenHost }),
        });
      expect((await send('www.example.com')).status).toBe(201);
      expect((await send('a.b.example.com')).status).toBe(201);
      expect((await send('example.com')).body).toMatchObject({ code: 'CAPTCHA_REJECTED', reason: 'wrong_hostname' });
    } finally {
      await own.close();
    }
  });
});
