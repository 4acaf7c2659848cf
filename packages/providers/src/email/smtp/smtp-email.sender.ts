/**
 * SMTP with nodemailer: Amazon SES's SMTP interface (the secondary provider) or any relay (the
 * embedded default's real SMTP path). With `sesConfigurationSet` the SES headers are added so SES
 * publishes bounces and complaints (with our tenant and message ids as tags) to its SNS topic.
 * The Message-ID is stable per message, so a redelivered message is recognisably the same one.
 */
import nodemailer from 'nodemailer';

import {
  type EmailMessage,
  type EmailSender,
  EmailSendError,
  type EmailSendResult,
  formatAddress,
  messageIdHeader,
} from '../email.port.js';

export interface SmtpOptions {
  /** Name reported as the provider (`ses`, `smtp`). */
  name: string;
  /** smtp://user:pass@host:port or smtps://…; credentials may also come from `auth`. */
  url: string;
  auth?: { user: string; pass: string };
  /** Domain of our Message-IDs. */
  messageIdDomain: string;
  sesConfigurationSet?: string;
  timeoutMs?: number;
  /** Refuse to send without TLS (production); loopback tests turn it off. */
  requireTls?: boolean;
  /** DKIM key of the message's sending domain, when we hold it (tenant domains). */
  dkimFor?: (m: EmailMessage) => Promise<DkimKey | undefined>;
}

export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

export function createSmtpSender(o: SmtpOptions): EmailSender {
  const u = new URL(o.url);
  const timeout = o.timeoutMs ?? 15_000;
  const transport = nodemailer.createTransport({
    host: u.hostname,
    port: Number(u.port) || (u.protocol === 'smtps:' ? 465 : 587),
    secure: u.protocol === 'smtps:',
    requireTLS: o.requireTls ?? false,
    ...(o.auth || u.username
      ? { auth: o.auth ?? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } }
      : {}),
    pool: true,
    maxConnections: 4,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    name: o.name,
    async send(m: EmailMessage): Promise<EmailSendResult> {
      const headers: Record<string, string> = { 'X-Platform-Message-Key': m.key };
      if (o.sesConfigurationSet) {
        headers['X-SES-CONFIGURATION-SET'] = o.sesConfigurationSet;
        headers['X-SES-MESSAGE-TAGS'] = `tenant_id=${m.tenantId}, message_id=${m.id}`;
      }
      const dkim = await o.dkimFor?.(m);
      try {
        const info = await transport.sendMail({
          ...(dkim ? { dkim } : {}),
          messageId: messageIdHeader(m, o.messageIdDomain),
          from: formatAddress(m.from),
          to: formatAddress(m.to),
          ...(m.replyTo ? { replyTo: formatAddress(m.replyTo) } : {}),
          subject: m.subject,
          text: m.text,
          html: m.html,
          headers,
        });
        // SES answers "250 Ok <ses message id>"; other relays keep our Message-ID.
        const ses = /^250 Ok (\S+)/i.exec(String(info.response));
        return { provider: o.name, providerMessageId: ses?.[1] ?? info.messageId };
      } catch (e) {
        const err = e as { responseCode?: number; code?: string; message: string };
        const what =
          `${o.name}: ${err.responseCode ? `SMTP ${err.responseCode} ` : ''}${err.code ?? ''} ${err.message}`.slice(
            0,
            300,
          );
        if (err.responseCode === 535 || (err.responseCode === 554 && /not verified|account/i.test(err.message)))
          throw new EmailSendError('account', what, o.name);
        if (err.responseCode && err.responseCode >= 500 && err.responseCode < 600)
          throw new EmailSendError('rejected', what, o.name);
        throw new EmailSendError('unavailable', what, o.name);
      }
    },
    close: async () => transport.close(),
  };
}
