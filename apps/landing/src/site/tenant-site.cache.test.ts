/** The per-tenant site cache, the fallback site without a source, and the brand's contrast rule. */
import type { WebsiteSnapshot } from '@platform/contracts/website.js';
import { createStaticSnapshotSource } from '@platform/website';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

import { alphaSnapshot, betaSnapshot } from '../../test/support/website-fixtures.js';
import { registerSite } from './site.routes.js';
import { priceFrom, themeCss } from './tenant-content.js';
import { TenantSiteCache } from './tenant-site.cache.js';
import type { TenantSite } from './tenant-site.js';

const render = (s: WebsiteSnapshot): TenantSite => ({
  tenantId: s.tenant_id,
  version: s.version,
  assets: new Map(),
  notFound: () => s.company.name,
});
const ref = (tenantId: string) => ({ tenantId, slug: tenantId, name: tenantId });
const fallback = () => {
  throw new Error('fallback not expected with a source');
};

describe('TenantSiteCache', () => {
  it('renders a tenant once, then answers from memory synchronously', async () => {
    const source = createStaticSnapshotSource({ a: alphaSnapshot('a') });
    const cache = new TenantSiteCache({ source, fallback, render });
    expect(await cache.get(ref('a'))).toMatchObject({ tenantId: 'a', version: 3 });
    expect(cache.get(ref('a'))).not.toBeInstanceOf(Promise);
    expect(source.reads).toBe(1);
  });

  it('keeps at most `max` tenants, dropping the least recently used', async () => {
    const source = createStaticSnapshotSource({ a: alphaSnapshot('a'), b: betaSnapshot('b'), c: betaSnapshot('c') });
    const cache = new TenantSiteCache({ source, fallback, render, max: 2 });
    await cache.get(ref('a'));
    await cache.get(ref('b'));
    void cache.get(ref('a'));
    await cache.get(ref('c'));
    expect(cache.size).toBe(2);
    expect(cache.get(ref('a'))).not.toBeInstanceOf(Promise);
    expect(cache.get(ref('b'))).toBeInstanceOf(Promise);
  });

  it('does not keep a build that a change overtook, nor a failed one', async () => {
    const source = createStaticSnapshotSource({ a: alphaSnapshot('a') });
    const cache = new TenantSiteCache({ source, fallback, render });
    const stale = cache.get(ref('a'));
    const newer = alphaSnapshot('a');
    newer.version = 4;
    source.set('a', newer);
    await stale;
    expect(await cache.get(ref('a'))).toMatchObject({ version: 4 });
    await expect(cache.get(ref('missing'))).rejects.toThrow(/no website snapshot/);
    expect(cache.size).toBe(1);
  });
});

describe('a tenant host without a snapshot source', () => {
  it("serves the tenant's own name and the default copy, never the platform's site", async () => {
    const app = Fastify();
    app.addHook('onRequest', async (req) => {
      if (req.hostname === 'gamma.tenants.test')
        req.tenant = {
          tenantId: 'g',
          slug: 'gamma',
          name: 'Gamma',
          siteName: 'Gamma Window Co',
          helpdeskTeamId: null,
          erpDb: null,
          isDefault: false,
        };
    });
    await registerSite(app, {
      siteName: 'Acme Blinds',
      captcha: { scriptUrl: '/c.js', siteKey: 'k' },
      tenantsHost: 'tenants.test',
    });
    const r = await app.inject({ url: '/', headers: { host: 'gamma.tenants.test' } });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('Gamma Window Co measures every window');
    expect(r.body).toContain('href="https://gamma.tenants.test/"');
    expect(r.body).not.toContain('Acme Blinds');
    expect(r.body).toContain('This form needs JavaScript for its spam check. Please turn it on');
    // No product priced yet: no empty product question in the form, no empty Products list in the footer.
    expect(r.body).not.toContain('What are you interested in?');
    expect(r.body).not.toContain('aria-label="Products"');
    await app.close();
  });
});

describe('the brand', () => {
  it("uses the tenant's colours only where they keep 4.5:1 for white text and 7:1 for page text", () => {
    expect(themeCss('#6a1b9a', '#f5f0fa')).toContain('--brand:#6a1b9a;');
    expect(themeCss('#6a1b9a', '#f5f0fa')).toContain('--alt:#f5f0fa');
    expect(themeCss('#ffd54f', '#333333')).toBe(
      ':root{--brand:#0b5d63;--brand-dark:color-mix(in srgb,#0b5d63 78%,#000);--alt:#f3f1ec}',
    );
    expect(themeCss('red;}body{display:none', null)).toContain('--brand:#0b5d63;');
  });

  it('formats "from" prices from minor units in the currency', () => {
    expect(priceFrom(12500, 'USD')).toBe('from $125');
    expect(priceFrom(39999, 'USD')).toBe('from $399.99');
    expect(priceFrom(5000, 'JPY')).toBe('from ¥5,000');
    expect(priceFrom(null, 'USD')).toBeNull();
  });
});
