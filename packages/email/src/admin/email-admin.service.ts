/** Office-user operations on one tenant's email: suppression list, sending domain, sender, preview. */
import type { Db } from '@platform/db';
import { type EmailSettings, getTenantSettings, setEmailSettings } from '@platform/tenancy';

import type { SendingDomainService } from '../domains/sending-domains.service.js';
import type { EmailOutboxService } from '../email-outbox.service.js';
import type { SuppressionService } from '../suppression/suppression.service.js';
import { sampleData } from '../templates/render.js';

export class EmailAdminService {
  constructor(
    private readonly db: Db,
    private readonly tenantId: string,
    private readonly suppressions: SuppressionService,
    private readonly domains: SendingDomainService,
    private readonly outbox: EmailOutboxService,
  ) {}

  async listSuppressions(opts: { email?: string; includeLifted?: boolean }) {
    const rows = await this.suppressions.list(this.tenantId, opts);
    return rows.map((r) => ({
      email: r.email,
      reason: r.reason,
      scope: r.scope,
      provider: r.provider,
      since: r.created_at,
      detail: r.detail,
      lifted_at: r.lifted_at,
      lifted_by: r.lifted_by,
      liftable: r.reason !== 'complaint' && r.lifted_at === null && r.tenant_id === this.tenantId,
    }));
  }

  async liftSuppression(email: string, by: string) {
    const r = await this.suppressions.lift(this.tenantId, email, by);
    return { email: r.email, reason: r.reason, lifted_at: r.lifted_at, lifted_by: r.lifted_by };
  }

  showDomain() {
    return this.domains.show(this.tenantId);
  }

  async addDomain(domain: string) {
    const {
      domain: { dkim_private_key_sealed: _secret, ...visible },
      records,
    } = await this.domains.add(this.tenantId, domain);
    return { domain: visible, records };
  }

  async verifyDomain() {
    const {
      domain: { dkim_private_key_sealed: _secret, ...visible },
      records,
    } = await this.domains.verify(this.tenantId);
    return { domain: visible, records };
  }

  removeDomain() {
    return this.domains.remove(this.tenantId);
  }

  async setSender(input: Pick<EmailSettings, 'from_name' | 'from_local_part' | 'reply_to'>) {
    const current = (await getTenantSettings(this.db, this.tenantId))?.email_settings ?? {};
    const next = { ...current, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
    await setEmailSettings(this.db, this.tenantId, next);
    return this.domains.show(this.tenantId);
  }

  async preview(template: string) {
    const m = await this.outbox.compose(this.db, {
      tenantId: this.tenantId,
      template,
      to: { address: 'recipient@example.com' },
      key: 'preview',
      data: sampleData(template),
    });
    return { from: m.from, reply_to: m.replyTo ?? null, subject: m.subject, text: m.text, html: m.html };
  }
}
