/**
 * Certificate issuance and renewal for proved tenant domains. One `runOnce` pass: takes the candidates
 * (only those are ever sent to the CA), queues the new ones as `pending`, attempts what is due, and
 * re-installs the proxy's certificates when any changed. Refusals and rate limits back off
 * exponentially and end in `failed` with the CA's reason; an active certificate renews at 2/3 of its
 * lifetime, and a failed renewal keeps serving the current certificate until it expires.
 */
import type { Db } from '@platform/db';
import type { SecretBox } from '@platform/secrets';

import { CertificateRepo, type CertificateRow } from './certificate.repo.js';
import {
  CERTIFIABLE_DOMAIN,
  type CertificateCandidates,
  type CertificateEvents,
  type CertificateInstaller,
  type CertificateIssuer,
  type InstalledCertificate,
} from './certificates.port.js';
import { ChallengeRepo } from './challenge.repo.js';
import { classifyAcmeError } from './issuance-error.js';

export interface CertificatePolicy {
  /** Attempts before a pending domain is `failed`. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Fraction of the lifetime after which a certificate is renewed. */
  renewAtFraction: number;
  /** Domains attempted per pass (issuance is slow; the rest wait for the next pass). */
  batchSize: number;
  /** How long a claimed domain is left to one worker's attempt. */
  leaseMs: number;
}

export const defaultCertificatePolicy: CertificatePolicy = {
  maxAttempts: 6,
  baseDelayMs: 60_000,
  maxDelayMs: 6 * 3_600_000,
  renewAtFraction: 2 / 3,
  batchSize: 5,
  leaseMs: 10 * 60_000,
};

export interface PassResult {
  issued: string[];
  retrying: string[];
  failed: string[];
}

const keyAad = (tenantId: string, domain: string) => `certificates:${tenantId}:${domain}`;

export class CertificateService {
  readonly certificates: CertificateRepo;
  private readonly challenges: ChallengeRepo;
  /** The first pass installs every active certificate (a restarted worker or a new proxy directory). */
  private installOwed = true;
  private served = '';

  constructor(
    db: Db,
    private readonly box: SecretBox,
    private readonly deps: {
      candidates: CertificateCandidates;
      issuer: CertificateIssuer;
      events: CertificateEvents;
      installer?: CertificateInstaller;
    },
    private readonly policy: CertificatePolicy = defaultCertificatePolicy,
  ) {
    this.certificates = new CertificateRepo(db);
    this.challenges = new ChallengeRepo(db);
  }

  async runOnce(now = new Date()): Promise<PassResult> {
    const result: PassResult = { issued: [], retrying: [], failed: [] };
    const candidates = await this.deps.candidates.list();
    const proved = new Map(
      candidates
        .map((c) => [c.domain.toLowerCase(), c.tenantId] as const)
        .filter(([domain]) => CERTIFIABLE_DOMAIN.test(domain)),
    );
    for (const [domain, tenantId] of proved) await this.certificates.ensurePending(domain, tenantId, now);
    const leaseUntil = new Date(now.getTime() + this.policy.leaseMs);
    const newlyActive: { domain: string; tenantId: string }[] = [];
    for (const row of await this.certificates.claimDue(now, leaseUntil, this.policy.batchSize)) {
      // A domain the tenant removed (or never proved) is never sent to the CA.
      if (proved.get(row.domain) !== row.tenant_id) continue;
      if ((await this.attempt(row, now, result)) && row.status !== 'active')
        newlyActive.push({ domain: row.domain, tenantId: row.tenant_id });
    }
    await this.challenges.removeExpired(now);
    // Install before telling the control plane, so `active` means nginx serves the domain. A failed
    // install (nginx refused the file, say) is retried on every pass until it succeeds.
    let installError: unknown;
    // A changed set of served certificates (issued, renewed, or a domain its tenant removed) needs a new install.
    const served = (await this.certificates.listActive())
      .filter((r) => proved.get(r.domain) === r.tenant_id)
      .map((r) => `${r.domain}@${r.not_after?.toISOString()}`)
      .sort()
      .join(',');
    if (served !== this.served) this.installOwed = true;
    this.served = served;
    if (this.deps.installer && (result.issued.length > 0 || this.installOwed)) {
      try {
        await this.installAll(proved);
        this.installOwed = false;
      } catch (e) {
        this.installOwed = true;
        installError = e;
      }
    }
    for (const a of newlyActive) await this.deps.events.onCertificateActive(a.domain, a.tenantId);
    if (installError) throw installError;
    return result;
  }

  /**
   * Writes the active certificates for the proxy. With `proved`, only domains still proved by their
   * tenant: a domain the tenant removed stops being served at the next install.
   */
  async installAll(proved?: ReadonlyMap<string, string>): Promise<void> {
    if (!this.deps.installer) return;
    const rows = (await this.certificates.listActive()).filter((r) => !proved || proved.get(r.domain) === r.tenant_id);
    const active: InstalledCertificate[] = rows.map((r) => ({
      domain: r.domain,
      tenantId: r.tenant_id,
      certPem: r.cert_pem!,
      keyPem: this.box.open(r.private_key_enc!, keyAad(r.tenant_id, r.domain)),
    }));
    await this.deps.installer.install(active);
  }

  /** True when a certificate was issued. */
  private async attempt(row: CertificateRow, now: Date, result: PassResult): Promise<boolean> {
    const candidate = { domain: row.domain, tenantId: row.tenant_id };
    try {
      const cert = await this.deps.issuer.issue(candidate);
      const lifetime = cert.notAfter.getTime() - cert.notBefore.getTime();
      const renewAt = new Date(cert.notBefore.getTime() + lifetime * this.policy.renewAtFraction);
      const keyEnc = this.box.seal(cert.keyPem, keyAad(row.tenant_id, row.domain));
      await this.certificates.markIssued(row.domain, {
        certPem: cert.certPem,
        keyEnc,
        notBefore: cert.notBefore,
        notAfter: cert.notAfter,
        renewAt,
        now,
      });
      result.issued.push(row.domain);
      return true;
    } catch (e) {
      const err = classifyAcmeError(e);
      const attempts = row.attempts + 1;
      const reason = `${err.kind}: ${err.message}`.slice(0, 1000);
      const stillValid = row.status === 'active' && row.not_after !== null && row.not_after > now;
      if (attempts >= this.policy.maxAttempts && !stillValid) {
        await this.certificates.markAttemptFailed(row.domain, {
          attempts,
          error: reason,
          nextAttemptAt: null,
          status: 'failed',
          now,
        });
        result.failed.push(row.domain);
        await this.deps.events.onCertificateFailed(row.domain, row.tenant_id, reason);
        return false;
      }
      const backoff = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (attempts - 1));
      const wait = Math.max(backoff, err.retryAfterMs ?? 0);
      await this.certificates.markAttemptFailed(row.domain, {
        attempts,
        error: reason,
        nextAttemptAt: new Date(now.getTime() + wait),
        status: row.status,
        now,
      });
      result.retrying.push(row.domain);
      return false;
    }
  }
}
