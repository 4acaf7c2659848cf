/**
 * Certificates for tenant domains against pebble (Let's Encrypt's ACME test server) as the real ACME
 * peer: the worker job issues over http-01 answered through nginx's port 80 by the landing host's
 * challenge route, seals the key, sets the domain active (here: tenant_domains.ssl_status, as the
 * control plane will), installs it in nginx, renews at 2/3 of the lifetime, and backs off to `failed`
 * with the CA's reason when validation is refused.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';

import { loadWorkerConfig } from '@platform/app-worker/config.js';
import {
  type CertificateJob,
  createCertificateJob,
} from '@platform/app-worker/features/certificates/certificates.job.js';
import { startWorker } from '@platform/app-worker/worker.js';
import { type CertificateCandidates, type CertificateEvents, TableCertificateCandidates } from '@platform/certificates';
import { requireBinary } from '@platform/proxy/test-support/binaries.js';
import { call } from '@platform/proxy/test-support/net.js';
import { type ProxyHarness, startProxy } from '@platform/proxy/test-support/proxy-harness.js';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../landing/test/support/landing-harness.js';
import { type Pebble, startPebble } from './pebble-harness.js';

const ready = requireBinary('nginx') && requireBinary('pebble');
const quiet = { info() {}, warn() {}, error() {} };

describe.skipIf(!ready)('tenant-domain certificates over ACME (pebble) behind nginx', () => {
  let landing: TestLanding;
  let proxy: ProxyHarness;
  let pebble: Pebble;
  let job: CertificateJob;
  let tenantId: string;
  let workerEnv: Record<string, string>;
  const failures: { domain: string; reason: string }[] = [];
  const table = () => new TableCertificateCandidates(landing.db);

  // The control plane's side, in the few lines it will take: candidates are its proved custom
  // domains (here tenant_domains rows plus the stand-in table), events set ssl_status.
  const candidates: CertificateCandidates = {
    list: async () => [
      ...(
        await landing.db.query<{ domain: string; tenant_id: string }>(
          `SELECT domain, tenant_id FROM tenant_domains WHERE domain_type = 'custom'`,
        )
      ).rows.map((r) => ({ domain: r.domain, tenantId: r.tenant_id })),
      ...(await table().list()),
    ],
  };
  const events: CertificateEvents = {
    onCertificateActive: async (domain, tenant) =>
      void (await landing.db.query(
        `UPDATE tenant_domains SET ssl_status = 'active' WHERE domain = $1 AND tenant_id = $2`,
        [domain, tenant],
      )),
    onCertificateFailed: async (domain, _tenant, reason) => {
      failures.push({ domain, reason });
      await landing.db.query(`UPDATE tenant_domains SET ssl_status = 'failed' WHERE domain = $1`, [domain]);
    },
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
    landing = await startTestLanding({ TRUST_PROXY: '127.0.0.1' });
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
    };
    const config = loadWorkerConfig(workerEnv);
    const box = createSecretBox(parseKeyring(keyring));
    job = createCertificateJob(config, landing.db, box, quiet, {
      candidates,
      events,
      policy: { maxAttempts: 3, baseDelayMs: 60_000 },
    })!;
    tenantId = (await landing.db.query<{ id: string }>('SELECT id FROM tenants WHERE is_default')).rows[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await pebble?.close();
    await proxy?.close();
    await landing?.close();
  });

  it('takes a proved custom domain from pending to active and nginx serves it with its own certificate', async () => {
    const domain = 'shop.tenant-one.test';
    await landing.db.query(`INSERT INTO tenant_domains (tenant_id, domain_type, domain) VALUES ($1, 'custom', $2)`, [
      tenantId,
      domain,
    ]);
    expect(await sslStatus(domain)).toBe('pending');
    await expect(presented(domain)).rejects.toThrow();

    const r = await job.runOnce();
    expect(r).toMatchObject({ issued: [domain], failed: [] });
    expect(await sslStatus(domain)).toBe('active');
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
    const page = await call({
      host: domain,
      port: proxy.layout.httpsPort,
      path: '/health',
      ca: await pebble.issuingRoot(),
    });
    expect(page.status).toBe(200);
    expect(JSON.parse(page.body)).toMatchObject({ status: 'ok' });
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
    await table().add(domain, tenantId);
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
    expect(failures).toEqual([{ domain, reason: r3.last_error }]);
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

  it('the worker started with ACME_DIRECTORY_URL issues for a proved domain on its own and installs it in nginx', async () => {
    const domain = 'www.tenant-three.test';
    await table().add(domain, tenantId);
    const worker = await startWorker(
      loadWorkerConfig({ ...workerEnv, CERTIFICATES_POLL_MS: '1000', CHANGE_FEED_POLL_MS: '0' }),
      { db: landing.db },
    );
    try {
      for (let i = 0; i < 200 && (await row(domain))?.status !== 'active'; i++)
        await new Promise((res) => setTimeout(res, 100));
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
    // The worker of the previous test proved domains from the stand-in table only, so it left this
    // one out; this job's candidates include tenant_domains and put it back.
    await job.runOnce();
    let back = await presented(domain).catch(() => undefined);
    for (let i = 0; i < 60 && !back; i++) {
      await new Promise((res) => setTimeout(res, 50));
      back = await presented(domain).catch(() => undefined);
    }
    expect(back?.authorized).toBe(true);
    await landing.db.query('DELETE FROM tenant_domains WHERE domain = $1', [domain]);
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
