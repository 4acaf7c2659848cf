import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildDocsSite } from './docs.build.js';
import { loadDocsConfig } from './docs.config.js';
import { docsPassword, startDocs } from './docs.server.js';

let tmp: string;
let docs: Awaited<ReturnType<typeof startDocs>>;
let auth: string;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'docs-site-'));
  const dist = join(tmp, 'dist');
  // No build in DOCS_DIST: the first start builds the real site (docs/ and the API references).
  docs = await startDocs(loadDocsConfig({ DOCS_PORT: '0', DOCS_DIST: dist, DATA_DIR: join(tmp, 'data') }));
  auth = `Basic ${Buffer.from(`docs:${readFileSync(join(tmp, 'data', 'docs-password'), 'utf8').trim()}`).toString('base64')}`;
}, 240_000);
afterAll(async () => {
  await docs?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const get = (path: string, withAuth = true) =>
  fetch(`${docs!.url}${path}`, withAuth ? { headers: { authorization: auth } } : {});

describe('docs site', () => {
  it('asks for sign-in, and refuses a wrong password', async () => {
    const anon = await get('/index.html', false);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    const wrong = await fetch(`${docs!.url}/index.html`, {
      headers: { authorization: `Basic ${Buffer.from('docs:nope').toString('base64')}` },
    });
    expect(wrong.status).toBe(401);
    expect((await get('/health', false)).status).toBe(200);
  });

  it('serves the project docs as pages with a local search index', async () => {
    const home = await get('/');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Platform documentation');
    const errors = await get('/errors.html');
    expect(errors.status).toBe(200);
    expect(await errors.text()).toContain('VALIDATION_FAILED');
    expect(readdirSync(join(tmp, 'dist', 'assets', 'chunks')).some((f) => f.startsWith('@localSearchIndex'))).toBe(
      true,
    );
  });

  it('serves the ERP REST, public and control-plane API references with Scalar bundled locally (no CDN)', async () => {
    for (const slug of ['erp-rest', 'public', 'control-plane']) {
      const page = await (await get(`/api/${slug}.html`)).text();
      expect(page).toContain('src="scalar/standalone.js"');
      expect(page).not.toMatch(/<script[^>]+src="https?:/);
      const spec = await (await get(`/api/openapi/${slug}.json`)).json();
      expect(spec.openapi).toBe('3.1.0');
    }
    expect(Object.keys((await (await get('/api/openapi/public.json')).json()).paths)).toContain('/api/estimate');
    expect(Object.keys((await (await get('/api/openapi/erp-rest.json')).json()).paths).join(' ')).toContain(
      '/restapi/1.0/object/',
    );
    expect(Object.keys((await (await get('/api/openapi/control-plane.json')).json()).paths)).toContain(
      '/api/tenants/{id}/plan',
    );
    const scalar = await get('/api/scalar/standalone.js');
    expect(scalar.status).toBe(200);
    expect((await scalar.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});

describe('docs sign-in password', () => {
  it('is generated once into DATA_DIR (0600) and announced, then reused; DOCS_PASSWORD wins', () => {
    const dataDir = join(tmp, 'pw');
    const said: string[] = [];
    const first = docsPassword(loadDocsConfig({ DATA_DIR: dataDir }), (m) => said.push(m));
    expect(first.length).toBeGreaterThanOrEqual(20);
    expect(said.join()).toContain(first);
    expect(statSync(join(dataDir, 'docs-password')).mode & 0o777).toBe(0o600);
    expect(docsPassword(loadDocsConfig({ DATA_DIR: dataDir }), (m) => said.push(m))).toBe(first);
    expect(said).toHaveLength(1);
    expect(docsPassword(loadDocsConfig({ DATA_DIR: dataDir, DOCS_PASSWORD: 'chosen-by-operator' }), () => {})).toBe(
      'chosen-by-operator',
    );
    expect(() => loadDocsConfig({ DOCS_PASSWORD: 'short' })).toThrow(/DOCS_PASSWORD: must be at least 12 characters/);
  });
});

describe('docs build', () => {
  it('fails when a page links to a page that does not exist', async () => {
    const root = fileURLToPath(new URL('./fixtures/broken-link', import.meta.url));
    await expect(buildDocsSite({ root, outDir: join(tmp, 'broken'), references: [] })).rejects.toThrow(/dead link/i);
  }, 240_000);

  it('fails when a page links to an API reference that does not exist', async () => {
    const root = fileURLToPath(new URL('./fixtures/broken-api-link', import.meta.url));
    await expect(buildDocsSite({ root, outDir: join(tmp, 'broken-api') })).rejects.toThrow(
      /unknown API reference: index\.html -> \/api\/no-such-api\.html$/,
    );
  }, 240_000);
});
