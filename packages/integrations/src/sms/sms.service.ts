/**
 * SMS: sending goes through the outbox (the message row and its job commit together), webhooks are
 * verified, de-duplicated and answered fast, and an inbound SMS is attached in the ERP by a job: to
 * the partner with that number, or to a new lead when there is none.
 */
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';
import { enqueue, PermanentFailure, RetryLater } from '@platform/outbox';
import { createJustCallWebhookReceiver, SmsError, type SmsSender, type SmsWebhookRequest } from '@platform/providers';
import { TOPIC_SMS_SEND } from '@platform/contracts';
import type { IntegrationSettingsService } from '../settings/integration-settings.service.js';
import type { SmsLineRow } from '../settings/settings.repo.js';
import * as repo from './sms.repo.js';

export const TOPIC_SMS_INBOUND = 'sms.inbound';

export type WebhookOutcome = { status: 200; handled: string } | { status: 401 | 400; reason: string };

export class SmsService {
  constructor(
    private readonly db: Db,
    private readonly settings: IntegrationSettingsService,
    private readonly onQueued: () => void = () => {},
  ) {}

  /** Queues an SMS from the default line, or the line of a type. */
  async queue(tenantId: string, i: { to: string; body: string; lineType?: SmsLineRow['line_type'] }): Promise<{ id: string; from: string }> {
    const to = this.settings.normalizePhoneOrThrow(i.to, 'to');
    if (!i.body.trim() || i.body.length > 1600) throw new AppError('VALIDATION_FAILED', 'body must be 1 to 1600 characters.', { fieldIssues: [{ field: 'body', rule: 'length', message: 'must be 1 to 1600 characters' }] });
    const line = await this.settings.lineFor(tenantId, i.lineType);
    const id = await this.db.transaction(async (tx) => {
      const mid = (await repo.insertMessage(tx, { tenant_id: tenantId, direction: 'outbound', line_number: line.phone_number, contact_number: to, body: i.body, provider_message_id: null, status: 'queued' }))!;
      await enqueue(tx, { tenantId, topic: TOPIC_SMS_SEND, aggregateId: mid, dedupeKey: `sms-send:${mid}`, payload: { messageId: mid } });
      return mid;
    });
    this.onQueued();
    return { id, from: line.phone_number };
  }

  /** The outbox job: sends once; the provider id and status are stored. */
  async deliver(tenantId: string, messageId: string, senderFor: (secrets: { apiKey: string; apiSecret: string }) => SmsSender): Promise<{ providerMessageId: string; status: string }> {
    const m = await repo.findMessage(this.db, messageId);
    if (!m) throw new AppError('NOT_FOUND', `SMS ${messageId} is gone.`);
    if (m.provider_message_id) return { providerMessageId: m.provider_message_id, status: m.status };
    const secrets = await this.settings.smsSecrets(tenantId);
    if (!secrets) throw new AppError('NOT_FOUND', 'No SMS configuration: the message waits until one is set.');
    let r: { providerMessageId: string; status: string };
    try {
      r = await senderFor(secrets).send({ from: m.line_number, to: m.contact_number, body: m.body });
    } catch (e) {
      if (e instanceof SmsError && e.kind === 'rate_limited') throw new RetryLater('SMS provider rate limit', (e.retryAfterSeconds ?? 30) * 1000);
      if (e instanceof SmsError && !e.retryable) throw new PermanentFailure(`SMS refused: ${e.kind}`, { cause: e });
      throw e;
    }
    await repo.markSent(this.db, m.id, r.providerMessageId, r.status);
    return r;
  }

  /**
   * POST /sms/webhook/sms. The signing key is the Webhook Secret, or the API secret when none is set
   * (JustCall signs with it); unsigned or stale deliveries are refused. Duplicates are acknowledged.
   */
  async receiveWebhook(tenantId: string, req: SmsWebhookRequest): Promise<WebhookOutcome> {
    const secrets = await this.settings.smsSecrets(tenantId);
    if (!secrets) return { status: 401, reason: 'no SMS configuration' };
    const receiver = createJustCallWebhookReceiver({ secret: secrets.webhookSecret ?? secrets.apiSecret, webhookUrl: `${secrets.webhookBaseUrl}/sms/webhook/sms` });
    const r = receiver.receive(req);
    if (!r.ok) return { status: r.reason === 'malformed' ? 400 : 401, reason: r.reason };
    if (!r.event) return { status: 200, handled: `ignored ${r.type}` };
    const e = r.event;
    return this.db.transaction(async (tx) => {
      if (!(await repo.recordReceipt(tx, tenantId, 'sms', e.eventId))) return { status: 200 as const, handled: 'duplicate' };
      if (e.type === 'sms.received') {
        const id = await repo.insertMessage(tx, { tenant_id: tenantId, direction: 'inbound', line_number: e.line, contact_number: e.contact, body: e.body, provider_message_id: e.providerMessageId, status: 'received' });
        if (id) await enqueue(tx, { tenantId, topic: TOPIC_SMS_INBOUND, aggregateId: id, dedupeKey: `sms-inbound:${id}`, payload: { messageId: id } });
        this.onQueued();
        return { status: 200 as const, handled: 'received' };
      }
      await repo.updateStatusByProviderId(tx, tenantId, e.providerMessageId, e.type === 'sms.delivered' ? 'delivered' : (e.status ?? 'sent'));
      return { status: 200 as const, handled: e.type };
    });
  }

  /** The inbound job: the partner with that number, else a new lead; linked on the message. */
  async attachInbound(messageId: string, erp: Erp): Promise<{ model: string; id: number }> {
    const m = await repo.findMessage(this.db, messageId);
    if (!m) throw new AppError('NOT_FOUND', `SMS ${messageId} is gone.`);
    if (m.erp_model && m.erp_id) return { model: m.erp_model, id: m.erp_id };
    // Partners keep numbers as typed: compare on the last 10 digits, a national number.
    const tail = m.contact_number.slice(-10);
    const pattern = tail.split('').join('%');
    const partners = await erp.search('res.partner', ['|', ['phone', 'ilike', pattern], ['mobile', 'ilike', pattern]], { limit: 1, order: 'id' });
    let link: { model: string; id: number };
    if (partners[0]) link = { model: 'res.partner', id: partners[0] };
    else link = { model: 'crm.lead', id: await erp.create('crm.lead', { name: `SMS from +${m.contact_number}`, phone: `+${m.contact_number}`, description: `<p>${escapeHtml(m.body)}</p>`, type: 'lead' }) };
    await repo.linkErpRecord(this.db, m.id, link.model, link.id);
    return link;
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
