/**
 * The suppression list shared by every provider and service. Hard bounces suppress the address for
 * the tenant whose mail bounced; complaints suppress it platform-wide (no tenant may mail a person
 * who reported mail as spam) and can never be lifted. An office user may lift a bounce.
 */
import type { Queryable } from '@platform/db';
import { AppError } from '@platform/kernel';
import type { EmailFeedbackEvent } from '@platform/providers';

import {
  activeSuppression,
  insertSuppression,
  liftSuppression,
  listSuppressions,
  type Suppression,
} from './suppression.repo.js';

export class SuppressionService {
  constructor(private readonly db: Queryable) {}

  /** Applies one bounce/complaint; returns whether it added an entry. Soft bounces change nothing. */
  async applyFeedback(tenantId: string, e: EmailFeedbackEvent): Promise<boolean> {
    const hard = e.kind === 'hard_bounce' || (e.kind !== 'complaint' && e.inactive);
    if (e.kind !== 'complaint' && !hard) return false;
    return insertSuppression(this.db, {
      tenantId,
      email: e.email,
      scope: e.kind === 'complaint' ? 'platform' : 'tenant',
      reason: e.kind === 'complaint' ? 'complaint' : 'hard_bounce',
      provider: e.provider,
      providerEventId: e.eventId,
      detail: e.detail,
    });
  }

  /** A provider refused the recipient as inactive at send time. */
  async recordInactive(tenantId: string, email: string, provider: string, detail: string): Promise<void> {
    await insertSuppression(this.db, {
      tenantId,
      email,
      scope: 'tenant',
      reason: 'inactive_recipient',
      provider,
      detail: { error: detail },
    });
  }

  check(tenantId: string, email: string): Promise<Suppression | undefined> {
    return activeSuppression(this.db, tenantId, email);
  }

  list(tenantId: string, opts: { email?: string; includeLifted?: boolean } = {}): Promise<Suppression[]> {
    return listSuppressions(this.db, tenantId, opts);
  }

  /** Lifts the tenant's bounce entry for `email`. Complaints are refused. */
  async lift(tenantId: string, email: string, by: string): Promise<Suppression> {
    const active = (await listSuppressions(this.db, tenantId, { email })).filter((s) => s.lifted_at === null);
    if (active.some((s) => s.tenant_id === tenantId && s.reason === 'unsubscribed'))
      throw new AppError(
        'EMAIL_SUPPRESSION_NOT_LIFTABLE',
        `${email} unsubscribed from this company's reminders and follow-ups; only they can undo it.`,
      );
    if (active.some((s) => s.reason === 'complaint'))
      throw new AppError(
        'EMAIL_SUPPRESSION_NOT_LIFTABLE',
        `${email} complained about mail (marked it as spam); a complaint is never lifted.`,
      );
    const own = active.find((s) => s.tenant_id === tenantId);
    if (!own) throw new AppError('EMAIL_SUPPRESSION_NOT_LIFTABLE', `${email} is not suppressed for this tenant.`);
    await liftSuppression(this.db, own.id, by);
    return { ...own, lifted_at: new Date(), lifted_by: by };
  }
}
