/**
 * Accepts emails for sending: renders the template with the tenant's branding, picks the sender
 * address (the tenant's verified domain, else the platform's domain with the tenant's reply-to),
 * and writes the message row and its outbox row in the caller's transaction. The idempotency key
 * makes a repeated request a no-op: the same key never produces a second email.
 */
import { TOPIC_EMAIL_BULK, TOPIC_EMAIL_TRANSACTIONAL } from '@platform/contracts';
import type { Db, Queryable } from '@platform/db';
import { AppError, newId } from '@platform/kernel';
import { enqueue } from '@platform/outbox';
import {
  type EmailAddress,
  type EmailAttachment,
  type EmailLane,
  type EmailMessage,
  MAX_ATTACHMENT_BYTES,
} from '@platform/providers';
import { findTenant, getTenantSettings, type TenantSettings } from '@platform/tenancy';

import { insertMessage } from './delivery/email-messages.repo.js';
import { brandOf } from './templates/brand.js';
import { renderTemplate } from './templates/render.js';
import { type EmailCategory, unsubscribeParts, withUnsubscribeLink } from './unsubscribe/unsubscribe.js';

export interface PlatformSender {
  domain: string;
  fromName: string;
  /** The public base URL serving /email/unsubscribe/<token> (else https://<domain>). */
  unsubscribeBaseUrl?: string;
}

export interface EmailRequest {
  tenantId: string;
  template: string;
  to: EmailAddress;
  data: unknown;
  /** Idempotency key, unique per tenant (e.g. `password-reset:<token id>`). */
  key: string;
  lane?: EmailLane;
  tags?: string[];
  /** Files sent with it (a quote's PDF), together at most MAX_ATTACHMENT_BYTES. */
  attachments?: EmailAttachment[];
  /** Reminders and follow-ups carry an unsubscribe link and one-click headers; transactional mail (the default) does not. */
  category?: EmailCategory;
}

export interface Accepted {
  messageId: string;
  /** False when the key had already been used: nothing new was queued. */
  queued: boolean;
}

const EMAIL_RE = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,255}$/;

export function senderFor(
  settings: TenantSettings | undefined,
  tenantName: string,
  platform: PlatformSender,
): { from: EmailAddress; replyTo?: EmailAddress } {
  const es = settings?.email_settings ?? {};
  const name = es.from_name || settings?.company_name || tenantName;
  const replyAddress = es.reply_to || settings?.email || undefined;
  const replyTo = replyAddress ? { address: replyAddress, name } : undefined;
  if (es.domain?.status === 'verified') {
    return {
      from: { address: `${es.from_local_part || 'no-reply'}@${es.domain.name}`, name },
      ...(replyTo ? { replyTo } : {}),
    };
  }
  return { from: { address: `no-reply@${platform.domain}`, name }, ...(replyTo ? { replyTo } : {}) };
}

export class EmailOutboxService {
  constructor(
    private readonly db: Db,
    private readonly platform: PlatformSender,
    private readonly onQueued: () => void = () => {},
  ) {}

  /** Renders without queuing (CLI preview, tests). */
  async compose(db: Queryable, r: EmailRequest, id = newId()): Promise<EmailMessage> {
    return (await this.build(db, r, id)).message;
  }

  private async build(
    db: Queryable,
    r: EmailRequest,
    id: string,
  ): Promise<{ message: EmailMessage; unsubscribeTokenHash: string | null }> {
    const tenant = await findTenant(db, r.tenantId);
    if (!tenant) throw new AppError('TENANT_NOT_FOUND', `Tenant ${r.tenantId} does not exist.`);
    if (!EMAIL_RE.test(r.to.address))
      throw new AppError('VALIDATION_FAILED', 'The recipient is not an email address.', {
        fieldIssues: [{ field: 'to', rule: 'format', message: 'must be an email address' }],
      });
    if (!r.key || r.key.length > 200)
      throw new AppError('VALIDATION_FAILED', 'The idempotency key is required (1-200 characters).', {
        fieldIssues: [{ field: 'key', rule: 'max_length', message: 'must be 1-200 characters' }],
      });
    const size = (r.attachments ?? []).reduce((n, a) => n + Buffer.byteLength(a.contentBase64, 'base64'), 0);
    if (size > MAX_ATTACHMENT_BYTES)
      throw new AppError('VALIDATION_FAILED', 'The attachments are too large to email.', {
        fieldIssues: [
          { field: 'attachments', rule: 'max_size', message: `must be at most ${MAX_ATTACHMENT_BYTES} bytes` },
        ],
      });
    const settings = await getTenantSettings(db, tenant.id);
    let rendered = renderTemplate(r.template, brandOf(settings, tenant.name), r.data);
    const { from, replyTo } = senderFor(settings, tenant.name, this.platform);
    const unsub =
      (r.category ?? 'transactional') === 'transactional'
        ? undefined
        : unsubscribeParts(this.platform.unsubscribeBaseUrl ?? `https://${this.platform.domain}`);
    if (unsub) rendered = { ...rendered, ...withUnsubscribeLink(rendered, unsub.url) };
    const message: EmailMessage = {
      id,
      tenantId: tenant.id,
      key: r.key,
      lane: r.lane ?? 'transactional',
      from,
      to: r.to,
      ...(replyTo ? { replyTo } : {}),
      ...rendered,
      tags: [r.template, ...(r.tags ?? [])],
      ...(r.attachments?.length ? { attachments: r.attachments } : {}),
      ...(unsub ? { headers: unsub.headers } : {}),
    };
    return { message, unsubscribeTokenHash: unsub?.hash ?? null };
  }

  /** Queues inside the caller's transaction (the control plane commits it with its own write). */
  async enqueueIn(tx: Queryable, r: EmailRequest): Promise<Accepted> {
    const { message: m, unsubscribeTokenHash } = await this.build(tx, r, newId());
    const row = await insertMessage(tx, {
      unsubscribeTokenHash,
      id: m.id,
      tenantId: m.tenantId,
      key: m.key,
      lane: m.lane,
      template: r.template,
      to: m.to.address,
      from: m.from.address,
      subject: m.subject,
    });
    if (!row.created) return { messageId: row.id, queued: false };
    await enqueue(tx, {
      tenantId: m.tenantId,
      topic: m.lane === 'bulk' ? TOPIC_EMAIL_BULK : TOPIC_EMAIL_TRANSACTIONAL,
      aggregateId: m.id,
      dedupeKey: `email:${m.key}`,
      payload: m,
    });
    return { messageId: m.id, queued: true };
  }

  /** Queues in its own transaction and wakes the worker's lane in this process. */
  async enqueue(r: EmailRequest): Promise<Accepted> {
    const out = await this.db.transaction((tx) => this.enqueueIn(tx, r));
    if (out.queued) this.onQueued();
    return out;
  }
}
