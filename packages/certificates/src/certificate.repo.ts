/** SQL of the certificates table and the ACME account key. */
import type { Queryable } from '@platform/db';

export type CertificateStatus = 'pending' | 'active' | 'failed';

export interface CertificateRow {
  domain: string;
  tenant_id: string;
  status: CertificateStatus;
  cert_pem: string | null;
  private_key_enc: string | null;
  not_before: Date | null;
  not_after: Date | null;
  renew_at: Date | null;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
}

export class CertificateRepo {
  constructor(private readonly db: Queryable) {}

  async get(domain: string): Promise<CertificateRow | undefined> {
    return (await this.db.query<CertificateRow>('SELECT * FROM certificates WHERE domain = $1', [domain])).rows[0];
  }

  /** A row for a newly proved domain; an existing row (and its state) is kept. */
  async ensurePending(domain: string, tenantId: string, now: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO certificates (domain, tenant_id, status, next_attempt_at) VALUES ($1, $2, 'pending', $3) ON CONFLICT (domain) DO NOTHING`,
      [domain, tenantId, now],
    );
  }

  /**
   * Claims the rows due for an attempt (pending ones past their backoff, active ones past renew_at):
   * their next_attempt_at moves to `leaseUntil`, so another worker skips them meanwhile and a worker
   * that dies mid-issuance leaves them due again once the lease ends.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<CertificateRow[]> {
    return (
      await this.db.query<CertificateRow>(
        `UPDATE certificates SET next_attempt_at = $2
          WHERE domain IN (
            SELECT domain FROM certificates
             WHERE next_attempt_at <= $1 AND (status = 'pending' OR (status = 'active' AND renew_at <= $1))
             ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING *`,
        [now, leaseUntil, limit],
      )
    ).rows;
  }

  async markIssued(
    domain: string,
    v: { certPem: string; keyEnc: string; notBefore: Date; notAfter: Date; renewAt: Date; now: Date },
  ): Promise<void> {
    await this.db.query(
      `UPDATE certificates SET status = 'active', cert_pem = $2, private_key_enc = $3, not_before = $4, not_after = $5,
              renew_at = $6, attempts = 0, next_attempt_at = $6, last_error = NULL, updated_at = $7
        WHERE domain = $1`,
      [domain, v.certPem, v.keyEnc, v.notBefore, v.notAfter, v.renewAt, v.now],
    );
  }

  /** A failed attempt: retried at nextAttemptAt, or given up (`failed`) when nextAttemptAt is null. */
  async markAttemptFailed(
    domain: string,
    v: { attempts: number; error: string; nextAttemptAt: Date | null; status: CertificateStatus; now: Date },
  ): Promise<void> {
    await this.db.query(
      `UPDATE certificates SET status = $2, attempts = $3, last_error = $4, next_attempt_at = COALESCE($5, next_attempt_at), updated_at = $6
        WHERE domain = $1`,
      [domain, v.status, v.attempts, v.error, v.nextAttemptAt, v.now],
    );
  }

  /** Back to the queue (an operator's retry of a `failed` domain). */
  async retry(domain: string, now: Date): Promise<boolean> {
    const r = await this.db.query(
      `UPDATE certificates SET status = 'pending', attempts = 0, next_attempt_at = $2, updated_at = $2 WHERE domain = $1 AND status = 'failed'`,
      [domain, now],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** Forgets a domain's certificate (the name now belongs to another tenant: the old key must not serve it). */
  async remove(domain: string): Promise<void> {
    await this.db.query('DELETE FROM certificates WHERE domain = $1', [domain]);
  }

  async listActive(): Promise<CertificateRow[]> {
    return (await this.db.query<CertificateRow>(`SELECT * FROM certificates WHERE status = 'active' ORDER BY domain`))
      .rows;
  }

  async accountKey(directoryUrl: string): Promise<string | undefined> {
    return (
      await this.db.query<{ account_key_enc: string }>(
        'SELECT account_key_enc FROM acme_accounts WHERE directory_url = $1',
        [directoryUrl],
      )
    ).rows[0]?.account_key_enc;
  }

  /** First writer wins, so two workers end up with one account. */
  async saveAccountKey(directoryUrl: string, keyEnc: string): Promise<string> {
    await this.db.query(
      'INSERT INTO acme_accounts (directory_url, account_key_enc) VALUES ($1, $2) ON CONFLICT (directory_url) DO NOTHING',
      [directoryUrl, keyEnc],
    );
    return (await this.accountKey(directoryUrl))!;
  }
}
