/**
 * CertificateIssuer over ACME (RFC 8555) with acme-client: one account per directory (its key sealed in
 * acme_accounts), http-01 only, the key authorization put in the challenge store that the proxy's
 * port-80 route serves, and removed again whatever the outcome.
 */
import { Agent } from 'node:https';

import type { SecretBox } from '@platform/secrets';
import * as acme from 'acme-client';

import type { CertificateRepo } from '../certificate.repo.js';
import type { CertificateCandidate, CertificateIssuer, IssuedCertificate } from '../certificates.port.js';
import type { ChallengeRepo } from '../challenge.repo.js';
import { classifyAcmeError } from '../issuance-error.js';

export interface AcmeIssuerOptions {
  directoryUrl: string;
  /** Contact for the CA's expiry and policy mail. */
  email?: string;
  /** Extra CA certificates (PEM) to trust for the directory's HTTPS (a test CA such as pebble's). */
  directoryCaPem?: string;
  /** How long a challenge answer stays servable. */
  challengeTtlMs?: number;
}

const accountAad = (directoryUrl: string) => `acme_accounts:${directoryUrl}`;

export class AcmeIssuer implements CertificateIssuer {
  private client: acme.Client | undefined;

  constructor(
    private readonly opts: AcmeIssuerOptions,
    private readonly certificates: CertificateRepo,
    private readonly challenges: ChallengeRepo,
    private readonly box: SecretBox,
  ) {
    // acme-client speaks through its own axios instance; a private CA for the directory is trusted there
    // only (the process's other HTTPS is unaffected).
    if (opts.directoryCaPem) acme.axios.defaults.httpsAgent = new Agent({ ca: opts.directoryCaPem, keepAlive: true });
  }

  async issue(c: CertificateCandidate): Promise<IssuedCertificate> {
    try {
      const client = await this.acmeClient();
      const [key, csr] = await acme.crypto.createCsr(
        { commonName: c.domain, altNames: [c.domain] },
        await acme.crypto.createPrivateEcdsaKey('P-256'),
      );
      const ttl = this.opts.challengeTtlMs ?? 10 * 60_000;
      const chain = await client.auto({
        csr,
        ...(this.opts.email ? { email: this.opts.email } : {}),
        termsOfServiceAgreed: true,
        challengePriority: ['http-01'],
        // The CA checks the answer itself; a self-check from inside would need the public DNS view.
        skipChallengeVerification: true,
        challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
          if (challenge.type !== 'http-01') throw new Error(`unexpected challenge type ${challenge.type}`);
          await this.challenges.put({
            token: challenge.token,
            tenantId: c.tenantId,
            domain: c.domain,
            keyAuthorization,
            expiresAt: new Date(Date.now() + ttl),
          });
        },
        challengeRemoveFn: async (_authz, challenge) => {
          await this.challenges.remove(challenge.token);
        },
      });
      const info = acme.crypto.readCertificateInfo(chain);
      return { certPem: chain, keyPem: key.toString(), notBefore: info.notBefore, notAfter: info.notAfter };
    } catch (e) {
      throw classifyAcmeError(e);
    }
  }

  private async acmeClient(): Promise<acme.Client> {
    if (this.client) return this.client;
    const { directoryUrl } = this.opts;
    let sealed = await this.certificates.accountKey(directoryUrl);
    if (!sealed) {
      const fresh = (await acme.crypto.createPrivateEcdsaKey('P-256')).toString();
      sealed = await this.certificates.saveAccountKey(directoryUrl, this.box.seal(fresh, accountAad(directoryUrl)));
    }
    this.client = new acme.Client({ directoryUrl, accountKey: this.box.open(sealed, accountAad(directoryUrl)) });
    return this.client;
  }
}
