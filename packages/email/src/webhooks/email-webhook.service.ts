/**
 * Bounce and complaint webhooks of both providers, feeding the shared suppression list.
 * Postmark does not sign: the request must carry the configured basic auth and/or header (compared
 * in constant time). SES arrives through SNS: every message's signature is verified against its
 * signing certificate (HTTPS, AWS SNS host), unexpected topics are refused, and a subscription
 * confirmation is answered by GETting its SubscribeURL. A refused request changes nothing.
 */
import { timingSafeEqual } from 'node:crypto';

import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';
import {
  AWS_SNS_CERT_HOST,
  type EmailFeedbackEvent,
  parsePostmarkWebhook,
  parseSesNotification,
  SnsVerifier,
} from '@platform/providers';
import { findTenant } from '@platform/tenancy';

import { tenantOfProviderMessage } from '../delivery/email-messages.repo.js';
import type { EmailConfig } from '../email.config.js';
import type { SuppressionService } from '../suppression/suppression.service.js';

type Headers = Record<string, string | string[] | undefined>;
export interface FeedbackOutcome {
  received: number;
  suppressed: number;
  ignored: number;
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const unauth = (why: string) => new AppError('EMAIL_WEBHOOK_UNAUTHENTICATED', why);

export class EmailWebhookService {
  private readonly sns: SnsVerifier;
  private readonly certHost: RegExp;

  constructor(
    private readonly db: Db,
    private readonly c: EmailConfig,
    private readonly suppressions: SuppressionService,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.certHost = c.EMAIL_SNS_CERT_HOST_PATTERN ? new RegExp(c.EMAIL_SNS_CERT_HOST_PATTERN) : AWS_SNS_CERT_HOST;
    this.sns = new SnsVerifier({
      allowedTopicArns: c.EMAIL_SNS_TOPIC_ARNS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      certHostPattern: this.certHost,
      allowHttpLoopback: c.EMAIL_SNS_ALLOW_HTTP_LOOPBACK === 'on',
      fetch: fetchImpl,
    });
  }

  async postmark(headers: Headers, body: unknown): Promise<FeedbackOutcome> {
    this.authenticatePostmark(headers);
    const event = parsePostmarkWebhook(body);
    if (!event)
      throw new AppError('BAD_REQUEST', 'Not a Postmark bounce or spam-complaint webhook (Email and ID are required).');
    return this.apply([event], 'postmark');
  }

  async ses(headers: Headers, rawBody: string): Promise<FeedbackOutcome & { confirmed?: boolean }> {
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw unauth('The SNS message is not JSON.');
    }
    const v = await this.sns.verify(body);
    if (!v.ok) throw unauth(`The SNS message was refused: ${v.reason}.`);
    const m = v.message;
    if (headers['x-amz-sns-message-type'] !== undefined && headers['x-amz-sns-message-type'] !== m.Type)
      throw unauth('The SNS message type header does not match the message.');
    if (m.Type === 'SubscriptionConfirmation') {
      await this.confirmSubscription(m.SubscribeURL!);
      return { received: 0, suppressed: 0, ignored: 0, confirmed: true };
    }
    if (m.Type === 'UnsubscribeConfirmation') return { received: 0, suppressed: 0, ignored: 0 };
    return this.apply(parseSesNotification(m.Message, m.MessageId), this.c.EMAIL_SECONDARY_NAME);
  }

  private authenticatePostmark(headers: Headers): void {
    const user = this.c.EMAIL_WEBHOOK_POSTMARK_USER;
    const pass = this.c.EMAIL_WEBHOOK_POSTMARK_PASSWORD;
    const custom = this.c.EMAIL_WEBHOOK_POSTMARK_HEADER;
    if (!(user && pass) && !custom)
      throw unauth('The Postmark webhook is not configured (EMAIL_WEBHOOK_POSTMARK_USER/_PASSWORD or _HEADER).');
    if (user && pass) {
      const got = String(headers.authorization ?? '');
      if (!same(got, `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`))
        throw unauth('Basic authentication failed.');
    }
    if (custom) {
      const i = custom.indexOf(':');
      const name = custom.slice(0, i).trim().toLowerCase();
      const value = custom.slice(i + 1).trim();
      if (!same(String(headers[name] ?? ''), value)) throw unauth(`The ${name} header is missing or wrong.`);
    }
  }

  private async confirmSubscription(subscribeUrl: string): Promise<void> {
    const u = new URL(subscribeUrl);
    const loopback = u.hostname === '127.0.0.1' || u.hostname === 'localhost';
    const okScheme =
      u.protocol === 'https:' || (u.protocol === 'http:' && loopback && this.c.EMAIL_SNS_ALLOW_HTTP_LOOPBACK === 'on');
    // Only ever call SNS itself: a signed message could still name any URL.
    if (!okScheme || !this.certHost.test(u.hostname)) throw unauth('The SubscribeURL is not an SNS address.');
    const res = await this.fetchImpl(u, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
    if (!res.ok)
      throw new AppError(
        'BAD_REQUEST',
        `Confirming the SNS subscription failed (HTTP ${res.status}); SNS will resend the confirmation.`,
      );
  }

  private async apply(events: EmailFeedbackEvent[], provider: string): Promise<FeedbackOutcome> {
    const out = { received: events.length, suppressed: 0, ignored: 0 };
    for (const e of events) {
      const tenantId = await this.tenantOf(e, provider);
      if (!tenantId) {
        out.ignored++;
        continue;
      }
      if (await this.suppressions.applyFeedback(tenantId, e)) out.suppressed++;
    }
    return out;
  }

  /** Our own record of the message decides the tenant; the echoed tag only when we have none. */
  private async tenantOf(e: EmailFeedbackEvent, provider: string): Promise<string | undefined> {
    if (e.providerMessageId) {
      const t = await tenantOfProviderMessage(this.db, provider, e.providerMessageId);
      if (t) return t;
    }
    if (e.tenantHint && /^[0-9a-f-]{36}$/i.test(e.tenantHint)) return (await findTenant(this.db, e.tenantHint))?.id;
    return undefined;
  }
}
