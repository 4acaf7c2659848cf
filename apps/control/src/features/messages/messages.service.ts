/**
 * The office's side of customer messages: Settings → Customer messages (each kind on or off, its
 * templates, the reminder hour, the review link and delays; owners and admins), a preview with
 * sample values, and a customer's timeline and channel preference (the office).
 */
import type { AutoMessage, MessageChannel, MessagePreview, MessageSettings } from '@platform/contracts/messages.js';
import { type Db, withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { assertTemplate, fill, type MessageKind, PLACEHOLDERS, SAMPLE_VARS } from './message-kinds.js';
import { tenantMessaging } from './message-options.js';
import { KIND_LABELS } from './message-sender.js';
import * as options from './message-settings.repo.js';
import * as repo from './messages.repo.js';

export interface MessageSettingsInput extends options.SettingsRow {
  kinds: { kind: MessageKind; enabled: boolean; sms: string; subject: string; email: string }[];
}

export class MessagesService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    private readonly erps: TenantErps,
  ) {}

  /** The customer must be one of the tenant's ERP contacts (another tenant's id is not found). */
  private async assertCustomer(tenantId: string, partnerId: number): Promise<void> {
    const erp = await this.erps.forTenant(tenantId);
    if (!(await erp.search('res.partner', [['id', '=', partnerId]])).length)
      throw new AppError('NOT_FOUND', 'No such customer.');
  }

  async settings(tenantId: string): Promise<MessageSettings> {
    const t = await withTenant(this.db, tenantId, (tx) => tenantMessaging(tx, tenantId));
    return {
      ...t.settings,
      time_zone: t.timeZone,
      placeholders: [...PLACEHOLDERS],
      kinds: Object.values(t.kinds).map((k) => ({ ...k, label: KIND_LABELS[k.kind] ?? k.kind })),
    };
  }

  async save(p: Principal, s: MessageSettingsInput, ip?: string): Promise<MessageSettings> {
    s.kinds.forEach((k, i) => {
      assertTemplate(`kinds.${i}.sms`, k.sms);
      assertTemplate(`kinds.${i}.subject`, k.subject);
      assertTemplate(`kinds.${i}.email`, k.email);
    });
    if (s.kinds.some((k) => k.kind === 'review_request' && k.enabled) && !s.review_link)
      throw new AppError('VALIDATION_FAILED', 'A review request needs the review link.', {
        fieldIssues: [{ field: 'review_link', rule: 'required', message: 'is needed to send review requests' }],
      });
    await withTenant(this.db, p.tenantId, async (tx) => {
      await options.saveSettings(tx, p.tenantId, s);
      for (const k of s.kinds)
        await options.saveKind(tx, p.tenantId, {
          ...{ kind: k.kind, enabled: k.enabled, sms_template: k.sms },
          ...{ email_subject: k.subject, email_template: k.email },
        });
      await this.audit.record(tx, {
        tenantId: p.tenantId,
        actor: { kind: 'user', id: p.userId },
        action: 'messages.settings.set',
        target: { type: 'tenant', id: p.tenantId },
        ...(ip ? { ip } : {}),
        detail: { enabled: s.kinds.filter((k) => k.enabled).map((k) => k.kind), reminder_hour: s.reminder_hour },
      });
    });
    return this.settings(p.tenantId);
  }

  /** The templates given (else the tenant's) filled with sample values and the company's name. */
  async preview(
    tenantId: string,
    b: { kind: MessageKind; sms?: string | undefined; subject?: string | undefined; email?: string | undefined },
  ): Promise<MessagePreview> {
    const t = await withTenant(this.db, tenantId, (tx) => tenantMessaging(tx, tenantId));
    const k = t.kinds[b.kind];
    const vars = {
      ...SAMPLE_VARS,
      company: t.company,
      review_link: t.settings.review_link ?? SAMPLE_VARS.review_link!,
    };
    const pick = (field: 'sms' | 'subject' | 'email', given: string | undefined) => {
      if (given !== undefined) assertTemplate(field, given);
      return fill(given ?? k[field], vars);
    };
    return { sms: pick('sms', b.sms), subject: pick('subject', b.subject), email: pick('email', b.email) };
  }

  async timeline(tenantId: string, partnerId: number): Promise<{ channel: MessageChannel; messages: AutoMessage[] }> {
    await this.assertCustomer(tenantId, partnerId);
    return withTenant(this.db, tenantId, async (tx) => ({
      channel: ((await options.channelPref(tx, tenantId, partnerId)) ?? 'both') as MessageChannel,
      messages: (await repo.timeline(tx, tenantId, partnerId)).map((l) => ({
        ...{ id: l.id, kind: l.kind, label: KIND_LABELS[l.kind] ?? l.kind, status: l.status },
        ...{ channels: l.channels, reason: l.reason, text: l.sms_body ?? l.email_subject, at: l.at.toISOString() },
      })),
    }));
  }

  async setChannel(
    p: Principal,
    partnerId: number,
    channel: MessageChannel,
    ip?: string,
  ): Promise<{ channel: MessageChannel }> {
    await this.assertCustomer(p.tenantId, partnerId);
    await withTenant(this.db, p.tenantId, async (tx) => {
      await options.setChannelPref(tx, p.tenantId, partnerId, channel);
      await this.audit.record(tx, {
        tenantId: p.tenantId,
        actor: { kind: 'user', id: p.userId },
        action: 'messages.channel.set',
        target: { type: 'customer', id: String(partnerId) },
        ...(ip ? { ip } : {}),
        detail: { channel },
      });
    });
    return { channel };
  }
}
