/**
 * CertificateCandidates from the certificate_candidates table: the stand-in source until the control
 * plane lists tenant_domains whose CNAME it has seen (docs/certificates.md, "Hooking up").
 */
import type { Queryable } from '@platform/db';

import type { CertificateCandidate, CertificateCandidates } from './certificates.port.js';

export class TableCertificateCandidates implements CertificateCandidates {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<CertificateCandidate[]> {
    const r = await this.db.query<{ domain: string; tenant_id: string }>(
      'SELECT domain, tenant_id FROM certificate_candidates ORDER BY proved_at',
    );
    return r.rows.map((x) => ({ domain: x.domain, tenantId: x.tenant_id }));
  }

  async add(domain: string, tenantId: string): Promise<void> {
    await this.db.query(
      'INSERT INTO certificate_candidates (domain, tenant_id) VALUES ($1, $2) ON CONFLICT (domain) DO UPDATE SET tenant_id = EXCLUDED.tenant_id',
      [domain.toLowerCase(), tenantId],
    );
  }
}
