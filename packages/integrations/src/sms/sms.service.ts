/**
 * SMS: sending goes through the outbox (the message row and its job commit together), webhooks are
 * notices checked against the provider, de-duplicated and answered fast, and an inbound SMS is posted
 * in the ERP by a job: on the chatter of the partner with that number, an open lead, or a new lead.
 */
import { TOPIC_SMS_INBOUND } from '@platform/contracts';
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';
import { enqueue, PermanentFailure, RetryLater } from '@platform/outbox';
import {
  ProviderError,
  type SmsAdapters,
  type SmsCredentials,
  type SmsProviderMessage,
  type SmsSender,
  type SmsWebhookRequest,
} from '@platform/providers';
import DataLoader from 'dataloader';

import type { IntegrationSettingsService } from '../settings/integration-settings.service.js';
import type { SmsLineRow } from '../settings/settings.repo.js';
import { recordWebhookReceipt, webhookReceiptSeen } from '../webhooks/webhook-receipts.repo.js';
import * as repo from './sms.repo.js';
import { chatterTarget, postOnChatter } from './sms-chatter.js';
import { applySmsKeyword } from './sms-keywords.js';
import * as optOuts from './sms-opt-outs.repo.js';
import { queueSmsIn, SMS_BODY_MAX } from './sms-queue.js';
import { DEFAULT_SMS_WEBHOOK_PATH } from './sms-webhook-path.js';

/** What became of a webhook request; the route maps it to HTTP (the provider retries `unavailable`). */
export type WebhookOutcome =
  | { kind: 'handled'; handled: string }
  | { kind: 'unauthenticated'; reason: string }
  | { kind: 'malformed'; reason: string }
  | { kind: 'unavailable'; reason: string };

export class SmsService {
  /**
   * The relay starts a batch's sends together: their message reads, and their tenants' SMS
   * credentials, fall in the same tick and are read once for the batch. Never cached beyond it.
   */
  private readonly toSend = new DataLoader((ids: readonly string[]) => repo.findMessagesToSend(this.db, ids), {
    cache: false,
  });
  private readonly secrets = new DataLoader(
    async (tenants: readonly string[]) => {
      // A tenant whose credentials cannot be read fails its own texts only (an Error is that key's rejection).
      const once = new Map([...new Set(tenants)].map((t) => [t, this.settings.smsSecrets(t).catch((e: Error) => e)]));
      return Promise.all(tenants.map((t) => once.get(t)!));
    },
    { cache: false },
  );

  constructor(
    private readonly db: Db,
    private readonly settings: IntegrationSettingsService,
    /** The provider's sender, reader and webhook receiver (composition roots pick the provider). */
    private readonly adapters: SmsAdapters,
    private readonly onQueued: () => void = () => {},
    /** How long a send whose outcome is unknown waits for the provider's notice before sending again. */
    private readonly unconfirmedGraceMs = DEFAULT_UNCONFIRMED_GRACE_MS,
  ) {}

  /** Queues an SMS from the default line, or the line of a type. */
  async queue(
    tenantId: string,
    i: { to: string; body: string; lineType?: SmsLineRow['line_type'] },
  ): Promise<{ id: string; from: string }> {
    const to = this.settings.normalizePhoneOrThrow(i.to, 'to');
    if (!i.body.trim() || i.body.length > SMS_BODY_MAX)
      throw new AppError('VALIDATION_FAILED', `body must be 1 to ${SMS_BODY_MAX} characters.`, {
        fieldIssues: [{ field: 'body', rule: 'length', message: `must be 1 to ${SMS_BODY_MAX} characters` }],
      });
    const line = await this.settings.lineFor(tenantId, i.lineType);
    const id = await this.db.transaction((tx) =>
      queueSmsIn(tx, { tenantId, from: line.phone_number, to, body: i.body }),
    );
    this.onQueued();
    return { id, from: line.phone_number };
  }

  /**
   * A tenant's text as sent so far: `accepted` once the provider took it (its id stored), `status`
   * the provider's word (`queued`, `sent`, `delivered`, …) or ours before that (`refused`, with its
   * `refused_reason`: `opted out`); undefined for another tenant's.
   */
  async messageStatus(
    tenantId: string,
    id: string,
  ): Promise<
    | { id: string; from: string; to: string; status: string; accepted: boolean; refused_reason: string | null }
    | undefined
  > {
    const m = await repo.findTenantMessage(this.db, tenantId, id);
    return (
      m && {
        id: m.id,
        from: m.line_number,
        to: m.contact_number,
        status: m.status,
        accepted: !!m.provider_message_id,
        refused_reason: m.refused_reason,
      }
    );
  }

  /**
   * The outbox job: sends once; the provider id and status are stored. The provider's send has no
   * idempotency key, so a send whose answer was lost (timeout, dropped connection, 5xx) is marked
   * `unconfirmed`: the provider's notice of it (same line, contact and text) gives it its id, and the
   * job sends again only when no notice came within the grace period.
   */
  async deliver(
    tenantId: string,
    messageId: string,
    senderFor: (credentials: SmsCredentials) => SmsSender = (c) => this.adapters.sender(c),
  ): Promise<{ providerMessageId: string | null; status: string }> {
    const m = await this.toSend.load(messageId);
    if (!m) throw new AppError('NOT_FOUND', `SMS ${messageId} is gone.`);
    if (m.provider_message_id) return { providerMessageId: m.provider_message_id, status: m.status };
    if (m.status === 'refused') return { providerMessageId: null, status: m.status };
    // The one place every text passes: an opted-out number gets only the replies to its keywords.
    if (m.opted_out && !m.keyword_reply) {
      await optOuts.refuse(this.db, m.id, SMS_REFUSED_OPTED_OUT);
      return { providerMessageId: null, status: 'refused' };
    }
    const waited = m.unconfirmed_ms;
    if (waited !== null && waited < this.unconfirmedGraceMs) {
      throw new RetryLater(
        "an earlier send's outcome is unknown: waiting for the provider's notice",
        this.unconfirmedGraceMs - waited,
      );
    }
    const secrets = await this.secrets.load(tenantId);
    if (!secrets) throw new AppError('NOT_FOUND', 'No SMS configuration: the message waits until one is set.');
    let r: { providerMessageId: string; status: string };
    await repo.setSendState(this.db, m.id, 'sending');
    try {
      r = await senderFor(secrets).send({ from: m.line_number, to: m.contact_number, body: m.body });
    } catch (e) {
      // Refused before sending (429, 4xx, bad input): surely not sent. Anything else may have gone out.
      const notSent =
        e instanceof ProviderError && ['rate_limited', 'rejected', 'unauthorized', 'invalid_input'].includes(e.kind);
      await repo.setSendState(this.db, m.id, notSent ? 'queued' : 'unconfirmed');
      if (e instanceof ProviderError && e.kind === 'rate_limited')
        throw new RetryLater('SMS provider rate limit', (e.retryAfterSeconds ?? 30) * 1000);
      if (e instanceof ProviderError && !e.retryable)
        throw new PermanentFailure(`SMS refused: ${e.kind}`, { cause: e });
      throw e;
    }
    try {
      await repo.markSent(this.db, m.id, r.providerMessageId, r.status);
    } catch (e) {
      // The text went out; sending it again would text the customer twice. Held for a person instead.
      await repo.setSendState(this.db, m.id, 'unconfirmed').catch(() => undefined);
      throw new PermanentFailure(
        `SMS sent as provider message ${r.providerMessageId} but it could not be recorded; not sent again`,
        { cause: e },
      );
    }
    return r;
  }

  /**
   * POST /sms/webhook/sms. The provider signs only URL, type and time (not the body), so a verified
   * webhook is a notice: the message is read from the provider by its id and only that is acted on;
   * a notice whose message the provider does not have is refused. A signature is used once per
   * message (replay cache) and once per request id; repeats are acknowledged and change nothing.
   * Signing keys: the Webhook Secret (else the API secret), and the previous one during a rotation.
   */
  async receiveWebhook(
    tenantId: string,
    req: SmsWebhookRequest,
    /** The path the notice reached (the tenant's own, smsWebhookPath): the provider signed base URL + it. */
    webhookPath = DEFAULT_SMS_WEBHOOK_PATH,
  ): Promise<WebhookOutcome> {
    const secrets = await this.settings.smsSecrets(tenantId);
    if (!secrets) return { kind: 'unauthenticated', reason: 'no SMS configuration' };
    const receiver = this.adapters.receiver({
      secrets: secrets.signingSecrets,
      webhookUrl: `${secrets.webhookBaseUrl}${webhookPath}`,
    });
    const r = receiver.receive(req);
    if (!r.ok) return { kind: r.reason === 'malformed' ? 'malformed' : 'unauthenticated', reason: r.reason };
    if (!r.event) return { kind: 'handled', handled: `ignored ${r.type}` };
    const e = r.event;
    await this.pruneReplayCache();
    const duplicate = { kind: 'handled' as const, handled: 'duplicate' };
    if (
      (await webhookReceiptSeen(this.db, tenantId, 'sms', e.eventId)) ||
      (await repo.signatureSeen(this.db, tenantId, 'sms', r.signature, e.providerMessageId))
    )
      return duplicate;
    let m: SmsProviderMessage | null;
    try {
      m = await this.adapters.reader(secrets).getMessage(e.providerMessageId);
    } catch {
      // The provider retries a failed delivery: ask it to, rather than act on an unverified body.
      return { kind: 'unavailable', reason: 'provider_unreachable' };
    }
    if (!m) return { kind: 'malformed', reason: 'unknown_message' };
    if ((e.type === 'sms.received') !== (m.direction === 'inbound'))
      return { kind: 'malformed', reason: 'message_mismatch' };
    const fact = m;
    return this.db.transaction(async (tx) => {
      if (!(await repo.recordSignature(tx, tenantId, 'sms', r.signature, fact.providerMessageId))) return duplicate;
      if (!(await recordWebhookReceipt(tx, tenantId, 'sms', e.eventId))) return duplicate;
      if (e.type === 'sms.received') {
        const row = {
          tenant_id: tenantId,
          direction: 'inbound' as const,
          line_number: fact.line,
          contact_number: fact.contact,
          body: fact.body,
          provider_message_id: fact.providerMessageId,
          status: 'received',
        };
        let id = await repo.insertMessage(tx, row);
        const held = id ? undefined : await repo.findByProviderId(tx, tenantId, fact.providerMessageId);
        // Another text under this provider id: a provider that numbered again from the start (a
        // restarted stand-in). The text is kept without the id, never dropped as a duplicate.
        if (held && (held.direction !== 'inbound' || held.contact_number !== fact.contact || held.body !== fact.body))
          id = await repo.insertMessage(tx, { ...row, provider_message_id: null });
        // A keyword (STOP, START, HELP) is acted on with the text it came in, and still reaches the chatter.
        if (id) await applySmsKeyword(tx, tenantId, fact);
        if (id)
          await enqueue(tx, {
            tenantId,
            topic: TOPIC_SMS_INBOUND,
            aggregateId: id,
            dedupeKey: `sms-inbound:${id}`,
            payload: { messageId: id },
          });
        this.onQueued();
        return { kind: 'handled' as const, handled: id ? 'received' : 'duplicate' };
      }
      const status = fact.status === 'unknown' ? (e.status ?? 'sent') : fact.status;
      const known = await repo.updateStatusByProviderId(tx, tenantId, fact.providerMessageId, status);
      // Not ours by id: perhaps a send whose answer was lost, now confirmed by the provider.
      if (!known) await repo.adoptInDoubt(tx, tenantId, fact, status);
      return { kind: 'handled' as const, handled: e.type };
    });
  }

  private lastPrune = 0;
  /** Cached signatures outlive the replay window (their timestamps are refused as stale after it). */
  private async pruneReplayCache(): Promise<void> {
    if (Date.now() - this.lastPrune < 60_000) return;
    this.lastPrune = Date.now();
    await repo.pruneSignatures(this.db, SIGNATURE_CACHE_WINDOWS * this.adapters.replayWindowSeconds).catch(() => 0);
  }

  /**
   * The inbound job: the text goes on the chatter of the partner with that number, else of an open
   * lead with it, else of a new lead (sms-chatter.ts). Each step is recorded as it lands, and each
   * ERP write is found again by its external id or marker after a lost reply.
   */
  async attachInbound(messageId: string, erp: Erp): Promise<{ model: string; id: number; messageId: number }> {
    const m = await repo.findMessage(this.db, messageId);
    if (!m) throw new AppError('NOT_FOUND', `SMS ${messageId} is gone.`);
    if (m.erp_model && m.erp_id && m.erp_message_id)
      return { model: m.erp_model, id: m.erp_id, messageId: m.erp_message_id };
    const target = m.erp_model && m.erp_id ? { model: m.erp_model, id: m.erp_id } : await chatterTarget(erp, m);
    if (!m.erp_model) await repo.linkErpRecord(this.db, m.id, target.model, target.id);
    const posted = await postOnChatter(erp, target, m);
    await repo.linkErpMessage(this.db, m.id, posted);
    return { model: target.model, id: target.id, messageId: posted };
  }
}

/** Why a text to a number that texted STOP was not sent, as the office sees it. */
export const SMS_REFUSED_OPTED_OUT = 'opted out';

/** Provider notices come within seconds; two minutes is far beyond, and short for a customer waiting. */
export const DEFAULT_UNCONFIRMED_GRACE_MS = 120_000;

/** Ten replay windows: far beyond any timestamp the receiver still accepts. */
const SIGNATURE_CACHE_WINDOWS = 10;
