/**
 * Certificates for tenant domains against pebble (Let's Encrypt's ACME test server) as the real ACME
 * peer. A tenant adds a custom domain through the control plane (pending); the worker's DNS check sees
 * its CNAME to the tenants host through a real DNS server on loopback; the certificate job issues over
 * http-01 answered through nginx's port 80 by the landing host's challenge route, seals the key, sets
 * tenant_domains.ssl_status `active` and installs it in nginx; the landing host then serves that
 * tenant on it over TLS with its own certificate. Renewal at 2/3 of the lifetime, and back-off to
 * `failed` with the CA's reason (shown to the tenant) when validation is refused.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';

import { loadControlConfig } from '@platform/app-control/control.config.js';
import { buildControlApp } from '@platform/app-control/control.http-app.js';
import { composeControl } from '@platform/app-control/deps.js';
import { issueAccessToken } from '@platform/app-control/features/auth/access-token.js';
import { loadWorkerConfig } from '@platform/app-worker/config.js';
import {
  type CertificateJob,
  createCertificateJob,
} from '@platform/app-worker/features/certificates/certificates.job.js';
import { tenantDomainCertificateHooks } from '@platform/app-worker/features/domains/certificate-hookup.js';
import { createDomainCheckJob, type DomainCheckJob } from '@platform/app-worker/features/domains/domain-check.job.js';
import { startWorker } from '@platform/app-worker/worker.js';
import { requireBinary } from '@platform/proxy/test-support/binaries.js';
import { call } from '@platform/proxy/test-support/net.js';
import { type ProxyHarness, startProxy } from '@platform/proxy/test-support/proxy-harness.js';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { type CnameDns, startCnameDns } from '@platform/tenancy/test-support/cname-dns.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../landing/test/support/landing-harness.js';
import { type Pebble, startPebble } from './pebble-harness.js';

const ready = requireBinary('nginx') && requireBinary('pebble');
const quiet = { info() {}, warn() {}, error() {} };

describe.skipIf(!ready)('tenant-domain certificates over ACME (pebble) behind nginx', () => {
  let landing: TestLanding;
  let proxy: ProxyHarness;
  let pebble: Pebble;
  let dns: CnameDns;
  let control: FastifyInstance;
  let job: CertificateJob;
  let checks: DomainCheckJob;
  let tenantId: string;
  let ownerToken: string;
  let workerEnv: Record<string, string>;
  const TENANTS_HOST = 'tenants.test';

  /** The control plane's API, as the tenant's owner uses it. */
  const api = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    control.inject({
      method,
      url,
      headers: { authorization: `Bearer ${ownerToken}` },
      ...(payload ? { payload } : {}),
    });
  const domainView = async (domain: string) =>
    ((await api('GET', `/api/tenants/${tenantId}/domains`)).json().items as Record<string, unknown>[]).find(
      (d) => d.domain === domain,
    );
  /** A custom domain added by the tenant whose CNAME the DNS check has seen (a proved domain). */
  const proved = async (domain: string) => {
    expect((await api('POST', `/api/tenants/${tenantId}/domains`, { domain })).statusCode).toBe(201);
    dns.cname.set(domain, TENANTS_HOST);
    expect((await checks.runOnce(new Date(Date.now() + 1000))).seen).toContain(domain);
  };
  const row = async (domain: string) =>
    (
      await landing.db.query<{
        status: string;
        attempts: number;
        last_error: string | null;
        next_attempt_at: Date;
        renew_at: Date | null;
        not_before: Date | null;
        not_after: Date | null;
        private_key_enc: string | null;
        cert_pem: string | null;
        tenant_id: string;
      }>('SELECT * FROM certificates WHERE domain = $1', [domain])
    ).rows[0];
  const sslStatus = async (domain: string) =>
    (
      await landing.db.query<{ ssl_status: string }>('SELECT ssl_status FROM tenant_domains WHERE domain = $1', [
        domain,
      ])
    ).rows[0]?.ssl_status;
  /** The certificate nginx presents for a name (serial and issuer), verified against pebble's root. */
  const presented = async (domain: string) => {
    const ca = await pebble.issuingRoot();
    return new Promise<{ serial: string; issuer: string; authorized: boolean }>((resolve, reject) => {
      const s = connect(
        { host: '127.0.0.1', port: proxy.layout.httpsPort, servername: domain, ca, ALPNProtocols: ['http/1.1'] },
        () => {
          const c = s.getPeerCertificate();
          resolve({ serial: c.serialNumber, issuer: String(c.issuer.CN ?? ''), authorized: s.authorized });
          s.destroy();
        },
      );
      s.on('error', reject);
    });
  };

  beforeAll(async () => {
    landing = await startTestLanding({ TRUST_PROXY: '127.0.0.1', TENANTS_HOST });
    dns = await startCnameDns();
    proxy = await startProxy({
      erp: '127.0.0.1:9',
      landing: new URL(landing.url).host,
      pwa: '127.0.0.1:9',
      docs: '127.0.0.1:9',
    });
    pebble = await startPebble({ httpPort: proxy.layout.httpPort });
    const dir = mkdtempSync(join(tmpdir(), 'acme-'));
    writeFileSync(join(dir, 'pebble-listener.pem'), pebble.listenerCaPem);
    const keyring = `k1:${randomBytes(32).toString('base64')}`;
    workerEnv = {
      SECRETS_KEYRING: keyring,
      ACME_DIRECTORY_URL: pebble.directoryUrl,
      ACME_CA_FILE: join(dir, 'pebble-listener.pem'),
      ACME_EMAIL: 'ops@example.com',
      PROXY_DIR: proxy.paths.prefix,
      NGINX_BIN: proxy.paths.bin,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      TENANTS_HOST,
      DNS_SERVERS: dns.server,
    };
    const config = loadWorkerConfig(workerEnv);
    const box = createSecretBox(parseKeyring(keyring));
    job = createCertificateJob(config, landing.db, box, quiet, {
      ...tenantDomainCertificateHooks(landing.db),
      policy: { maxAttempts: 3, baseDelayMs: 60_000 },
    })!;
    checks = createDomainCheckJob(config, landing.db, quiet)!;
    // The control plane on the same platform database, and a tenant with its owner.
    const cc = composeControl(
      loadControlConfig({ CONTROL_JWT_SECRET: 'e2e-secret-of-the-control-plane-0123456789', TENANTS_HOST }),
      landing.db,
    );
    control = await buildControlApp(cc, { logger: false, bodyLimit: 65_536, trustProxy: false });
    tenantId = (
      await landing.db.query<{ id: string }>(
        `INSERT INTO tenants (slug, name, plan) VALUES ('tenant-one', 'Tenant One', 'starter') RETURNING id`,
      )
    ).rows[0]!.id;
    const { userId } = await landing.db.transaction((q) =>
      cc.members.ensureMember(q, tenantId, { email: 'owner@tenant-one.test', role: 'owner', password: 'pw pw pw pw' }),
    );
    ownerToken = await issueAccessToken(
      cc.tokenKeys,
      { userId, tenantId, role: 'owner', email: 'owner@tenant-one.test' },
      3600,
    );
  }, 120_000);

  afterAll(async () => {
    await control?.close();
    await dns?.close();
    await pebble?.close();
    await proxy?.close();
    await landing?.close();
  });

  it('takes a custom domain from pending (CNAME seen through DNS) to active, and nginx serves its tenant with its own certificate', async () => {
    const domain = 'shop.tenant-one.test';
    const added = await api('POST', `/api/tenants/${tenantId}/domains`, { domain: 'Shop.Tenant-One.TEST' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      domain,
      ssl_status: 'pending',
      state: 'awaiting_dns',
      cname_target: TENANTS_HOST,
    });
    // Not proved yet: the certificate job asks the CA for nothing.
    expect(await job.runOnce()).toEqual({ issued: [], retrying: [], failed: [] });
    await expect(presented(domain)).rejects.toThrow();

    // The DNS check sees no CNAME first, then the one the tenant sets.
    expect((await checks.runOnce(new Date(Date.now() + 1000))).waiting).toEqual([domain]);
    expect((await domainView(domain))?.check_error).toMatch(/no CNAME|does not exist/);
    dns.cname.set(domain, TENANTS_HOST);
    await api('POST', `/api/tenants/${tenantId}/domains/${added.json().id as string}/check`);
    expect((await checks.runOnce(new Date(Date.now() + 1000))).seen).toEqual([domain]);
    expect(await domainView(domain)).toMatchObject({ ssl_status: 'pending', state: 'issuing_certificate' });

    const r = await job.runOnce();
    expect(r).toMatchObject({ issued: [domain], failed: [] });
    expect(await sslStatus(domain)).toBe('active');
    expect(await domainView(domain)).toMatchObject({ ssl_status: 'active', state: 'active', failure_reason: null });
    const stored = (await row(domain))!;
    expect(stored).toMatchObject({ status: 'active', attempts: 0, last_error: null, tenant_id: tenantId });
    // The key is sealed at rest, never plaintext; the chain is the CA's.
    expect(stored.private_key_enc).toMatch(/^v1\./);
    expect(stored.private_key_enc).not.toContain('PRIVATE KEY');
    const lifetime = stored.not_after!.getTime() - stored.not_before!.getTime();
    expect(Math.abs(stored.renew_at!.getTime() - (stored.not_before!.getTime() + (lifetime * 2) / 3))).toBeLessThan(
      1000,
    );

    // nginx -s reload is a signal: new workers pick up the certificate a moment later.
    let tls = await presented(domain).catch(() => undefined);
    for (let i = 0; i < 60 && !tls; i++) {
      await new Promise((res) => setTimeout(res, 50));
      tls = await presented(domain).catch(() => undefined);
    }
    expect(tls).toBeDefined();
    if (!tls) return;
    expect(tls.authorized).toBe(true);
    expect(tls.issuer).toMatch(/Pebble/i);
    // The landing host resolves the now-active domain to its tenant (a host-dependent route).
    const page = await call({
      host: domain,
      port: proxy.layout.httpsPort,
      path: '/openapi.json',
      ca: await pebble.issuingRoot(),
    });
    expect(page.status).toBe(200);
    expect(page.headers['x-tenant-id']).toBe(tenantId);
    expect(page.headers['x-tenant-slug']).toBe('tenant-one');
    // Nothing is due again before renew_at: a second pass asks the CA for nothing.
    expect(await job.runOnce()).toEqual({ issued: [], retrying: [], failed: [] });
  });

  it('renews at 2/3 of the lifetime and nginx then presents the new certificate', async () => {
    const domain = 'shop.tenant-one.test';
    const before = await presented(domain);
    const renewAt = (await row(domain))!.renew_at!;
    const r = await job.runOnce(new Date(renewAt.getTime() + 1000));
    expect(r.issued).toEqual([domain]);
    expect((await row(domain))!.status).toBe('active');
    let after = await presented(domain);
    for (let i = 0; i < 40 && after.serial === before.serial; i++) {
      await new Promise((res) => setTimeout(res, 50));
      after = await presented(domain);
    }
    expect(after.serial).not.toBe(before.serial);
    expect(after.authorized).toBe(true);
  });

  it('keeps serving the current certificate when a renewal is refused, and retries later', async () => {
    const domain = 'shop.tenant-one.test';
    const before = await presented(domain);
    const current = (await row(domain))!;
    pebble.nxdomain.add(domain);
    try {
      const now = new Date(current.renew_at!.getTime() + 1000);
      const r = await job.runOnce(now);
      expect(r.retrying).toEqual([domain]);
      const after = (await row(domain))!;
      expect(after).toMatchObject({ status: 'active', attempts: 1, cert_pem: current.cert_pem });
      expect(after.last_error).toMatch(/^refused: /);
      expect(after.next_attempt_at.getTime() - now.getTime()).toBe(60_000);
      expect(await sslStatus(domain)).toBe('active');
      expect((await presented(domain)).serial).toBe(before.serial);
    } finally {
      pebble.nxdomain.delete(domain);
    }
  });

  it("backs off on refusals and ends in failed with the CA's reason", async () => {
    const domain = 'gone.tenant-two.test';
    pebble.nxdomain.add(domain);
    await proved(domain);
    let now = new Date();
    const first = await job.runOnce(now);
    expect(first.retrying).toEqual([domain]);
    const r1 = (await row(domain))!;
    expect(r1).toMatchObject({ status: 'pending', attempts: 1 });
    expect(r1.last_error).toMatch(/^refused: /);
    expect(r1.next_attempt_at.getTime() - now.getTime()).toBe(60_000);
    // Not due yet: nothing is asked.
    expect((await job.runOnce(new Date(now.getTime() + 30_000))).retrying).toEqual([]);

    now = new Date(r1.next_attempt_at.getTime() + 1);
    await job.runOnce(now);
    const r2 = (await row(domain))!;
    expect(r2).toMatchObject({ status: 'pending', attempts: 2 });
    expect(r2.next_attempt_at.getTime() - now.getTime()).toBe(120_000);

    const last = await job.runOnce(new Date(r2.next_attempt_at.getTime() + 1));
    expect(last.failed).toEqual([domain]);
    const r3 = (await row(domain))!;
    expect(r3).toMatchObject({ status: 'failed', attempts: 3 });
    expect(r3.last_error).toMatch(/^refused: .*could not resolve/);
    // The tenant sees the domain failed, with the CA's reason.
    expect(await domainView(domain)).toMatchObject({ ssl_status: 'failed', state: 'failed' });
    expect((await domainView(domain))?.failure_reason).toBe(`certificate not issued: ${r3.last_error}`);
    // Failed stays failed: later passes do not ask the CA again.
    expect((await job.runOnce(new Date(Date.now() + 86_400_000))).failed).toEqual([]);
  });

  it('never asks the CA for a domain nobody proved', async () => {
    await landing.db.query(
      `INSERT INTO certificates (domain, tenant_id, status) VALUES ('unproved.example.test', $1, 'pending')`,
      [tenantId],
    );
    const r = await job.runOnce(new Date(Date.now() + 1000));
    expect([...r.issued, ...r.retrying, ...r.failed]).not.toContain('unproved.example.test');
    expect(await row('unproved.example.test')).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('the worker started with ACME_DIRECTORY_URL and DNS_SERVERS sees the CNAME, issues and installs on its own', async () => {
    const domain = 'www.tenant-three.test';
    expect((await api('POST', `/api/tenants/${tenantId}/domains`, { domain })).statusCode).toBe(201);
    dns.cname.set(domain, TENANTS_HOST);
    const worker = await startWorker(
      loadWorkerConfig({
        ...workerEnv,
        CERTIFICATES_POLL_MS: '1000',
        DOMAIN_CHECK_POLL_MS: '200',
        CHANGE_FEED_POLL_MS: '0',
      }),
      { db: landing.db },
    );
    try {
      for (let i = 0; i < 200 && (await sslStatus(domain)) !== 'active'; i++)
        await new Promise((res) => setTimeout(res, 100));
      expect(await sslStatus(domain)).toBe('active');
      expect((await row(domain))?.status).toBe('active');
      let tls = await presented(domain).catch(() => undefined);
      for (let i = 0; i < 60 && !tls; i++) {
        await new Promise((res) => setTimeout(res, 50));
        tls = await presented(domain).catch(() => undefined);
      }
      expect(tls?.authorized).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it('stops serving a domain its tenant removed', async () => {
    const domain = 'shop.tenant-one.test';
    await job.runOnce();
    let back = await presented(domain).catch(() => undefined);
    for (let i = 0; i < 60 && !back; i++) {
      await new Promise((res) => setTimeout(res, 50));
      back = await presented(domain).catch(() => undefined);
    }
    expect(back?.authorized).toBe(true);
    const id = (await domainView(domain))?.id as string;
    expect((await api('DELETE', `/api/tenants/${tenantId}/domains/${id}`)).statusCode).toBe(204);
    await job.runOnce();
    let gone = false;
    for (let i = 0; i < 60 && !gone; i++) {
      gone = await presented(domain).then(
        () => false,
        () => true,
      );
      if (!gone) await new Promise((res) => setTimeout(res, 50));
    }
    expect(gone).toBe(true);
    expect((await presented('www.tenant-three.test')).authorized).toBe(true);
  });
});
