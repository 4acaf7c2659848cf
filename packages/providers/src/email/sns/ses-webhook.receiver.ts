/**
 * SES bounce and complaint notifications, delivered by SNS (POST /email/webhook/ses). Every message's
 * signature is verified against its signing certificate (HTTPS, an AWS SNS host), unexpected topics
 * are refused, and a subscription confirmation is answered by GETting its SubscribeURL, which must be
 * an SNS address too: a signed message could still name any URL.
 */
import type { EmailWebhookReceiver, EmailWebhookResult } from '../email.port.js';
import { parseSesNotification } from './ses-notification.js';
import { AWS_SNS_CERT_HOST, SnsVerifier } from './sns-signature.js';

export interface SesWebhookOptions {
  /** The name of the sending adapter that sent through SES (its message ids are in email_messages). */
  provider: string;
  /** The SNS topics we subscribed; any other is refused. */
  allowedTopicArns: string[];
  /** Hosts allowed to serve certificates and confirm subscriptions (default: AWS SNS hosts). */
  certHostPattern?: RegExp;
  /** Tests only: plain HTTP to a loopback host. */
  allowLoopback?: boolean;
  fetch?: typeof fetch;
}

const refused = (detail: string): EmailWebhookResult => ({ ok: false, reason: 'unauthenticated', detail });

export function createSesWebhookReceiver(o: SesWebhookOptions): EmailWebhookReceiver {
  const certHost = o.certHostPattern ?? AWS_SNS_CERT_HOST;
  const fetchImpl = o.fetch ?? fetch;
  const sns = new SnsVerifier({
    allowedTopicArns: o.allowedTopicArns,
    certHostPattern: certHost,
    allowLoopback: o.allowLoopback === true,
    fetch: fetchImpl,
  });

  const confirmSubscription = async (subscribeUrl: string): Promise<EmailWebhookResult> => {
    const u = new URL(subscribeUrl);
    const loopback = u.hostname === '127.0.0.1' || u.hostname === 'localhost';
    const okScheme = u.protocol === 'https:' || (u.protocol === 'http:' && loopback && o.allowLoopback === true);
    if (!okScheme || !certHost.test(u.hostname)) return refused('The SubscribeURL is not an SNS address.');
    const res = await fetchImpl(u, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
    if (!res.ok)
      return {
        ok: false,
        reason: 'confirmation_failed',
        detail: `Confirming the SNS subscription failed (HTTP ${res.status}); SNS will resend the confirmation.`,
      };
    return { ok: true, events: [], confirmed: true };
  };

  return {
    route: 'ses',
    provider: o.provider,
    async receive({ headers, body }) {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return refused('The SNS message is not JSON.');
      }
      const v = await sns.verify(json);
      if (!v.ok) return refused(`The SNS message was refused: ${v.reason}.`);
      const m = v.message;
      if (headers['x-amz-sns-message-type'] !== undefined && headers['x-amz-sns-message-type'] !== m.Type)
        return refused('The SNS message type header does not match the message.');
      if (m.Type === 'SubscriptionConfirmation') return confirmSubscription(m.SubscribeURL!);
      if (m.Type === 'UnsubscribeConfirmation') return { ok: true, events: [] };
      return { ok: true, events: parseSesNotification(m.Message, m.MessageId) };
    },
  };
}
