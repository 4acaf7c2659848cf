/**
 * Tenant domains ↔ certificates (docs/certificates.md, "Hooking up the control plane"): the
 * candidates are the custom domains whose CNAME the DNS check has seen (nothing else is ever sent to
 * the CA); issuance makes the domain `active` (the resolver then resolves it); a final refusal makes
 * it `failed` with the CA's reason. A domain seen again (a tenant's retry, or a name that moved to
 * another tenant) puts its certificate back in the queue.
 */
import { type CertificateCandidates, type CertificateEvents, CertificateRepo } from '@platform/certificates';
import type { Db } from '@platform/db';
import { listProvedCustomDomains, markSslActive, markSslFailed } from '@platform/tenancy';

export function tenantDomainCertificateHooks(db: Db): { candidates: CertificateCandidates; events: CertificateEvents } {
  return {
    candidates: { list: () => listProvedCustomDomains(db) },
    events: {
      onCertificateActive: (domain, tenantId) => markSslActive(db, domain, tenantId),
      onCertificateFailed: (domain, tenantId, reason) =>
        markSslFailed(db, domain, tenantId, `certificate not issued: ${reason}`),
    },
  };
}

/** The DNS check saw this domain's CNAME: make sure its certificate will be asked for. */
export async function requeueCertificate(db: Db, d: { domain: string; tenantId: string }, now = new Date()) {
  const certificates = new CertificateRepo(db);
  const row = await certificates.get(d.domain);
  if (!row) return;
  if (row.tenant_id !== d.tenantId) await certificates.remove(d.domain);
  else if (row.status === 'failed') await certificates.retry(d.domain, now);
}
