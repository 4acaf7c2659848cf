/**
 * Sending a quote to the customer: a portal link on the tenant's primary host (refused when the
 * tenant turned the portal off), and revoking every link of a quote.
 */
import { type Db, withTenant } from '@platform/db';
import { AppError, type Clock } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { PortalLinks } from '../portal/portal-links.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import * as repo from './quotes.repo.js';
import { notFound, type QuotesService, userActor } from './quotes.service.js';
import * as erpSide from './sales-erp.js';

export interface QuoteSendingOptions {
  tenantsHost: string;
  portalLinkDays: number;
}

export class QuoteSending {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly erps: TenantErps,
    private readonly quotes: QuotesService,
    private readonly links: PortalLinks,
    private readonly audit: AuditLog,
    private readonly opts: QuoteSendingOptions,
  ) {}

  async send(p: Principal, id: string, ip?: string) {
    const q = await this.quotes.get(p.tenantId, id);
    if (!q.sale_order_id)
      throw new AppError('QUOTE_STATE_CONFLICT', 'The quote is not in the ERP yet; retry its creation.');
    if (q.state !== 'draft' && q.state !== 'sent')
      throw new AppError('QUOTE_STATE_CONFLICT', `The quote is ${q.state}; only an open quotation can be sent.`, {
        details: { state: q.state },
      });
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.opts.portalLinkDays * 86_400_000);
    const link = await withTenant(this.db, p.tenantId, async (tx) => {
      if (!(await repo.portalEnabled(tx, p.tenantId)))
        throw new AppError('PORTAL_DISABLED', 'The customer portal is turned off in the company settings.');
      const l = await this.links.issue(tx, { tenantId: p.tenantId, quoteId: id, createdBy: p.userId, expiresAt });
      await this.audit.record(tx, {
        ...userActor(p, ip),
        action: 'sales.quote.send',
        target: { type: 'quote', id },
        detail: { portal_link_id: l.id, expires_at: expiresAt.toISOString() },
      });
      const host = await repo.primaryHost(tx, p.tenantId);
      return { ...l, host: host.domain ?? `${host.slug}.${this.opts.tenantsHost}` };
    });
    // The link is made and answered even if the ERP cannot mark the quotation sent just now.
    await erpSide.markSent(await this.erps.forTenant(p.tenantId), q.sale_order_id).catch(() => undefined);
    return {
      portal_url: `https://${link.host}/portal/quote/${link.token}`,
      token: link.token,
      expires_at: expiresAt.toISOString(),
    };
  }

  async revokeLinks(p: Principal, id: string, ip?: string) {
    return withTenant(this.db, p.tenantId, async (tx) => {
      if (!(await repo.quoteById(tx, p.tenantId, id))) throw notFound();
      const revoked = await this.links.revokeAll(tx, p.tenantId, id, this.clock.now());
      await this.audit.record(tx, {
        ...userActor(p, ip),
        action: 'sales.quote.revoke_links',
        target: { type: 'quote', id },
        detail: { revoked },
      });
      return { revoked };
    });
  }
}
