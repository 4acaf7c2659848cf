/**
 * SMTP with nodemailer: Amazon SES's SMTP interface (the secondary provider) or any relay (the
 * embedded default's real SMTP path). With `sesConfigurationSet` the SES headers are added so SES
 * publishes bounces and complaints (with our tenant and message ids as tags) to its SNS topic.
 * The Message-ID is stable per message, so a redelivered message is recognisably the same one.
 */
import nodemailer from 'nodemailer';

import {
  type EmailFailureKind,
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

/** What nodemailer reports of a failed send: the reply code, and the command it came at (`CONN` for the greeting). */
export interface SmtpFailure {
  responseCode?: number;
  /** `CONN`, `EHLO`, `HELO`, `AUTH PLAIN`, `MAIL FROM`, `RCPT TO`, `DATA`, `API` (before any command) … */
  command?: string;
  code?: string;
  message: string;
}

/** The commands whose refusal is the message's own fault: its recipient (RCPT) or its content (DATA). */
const MESSAGE_STAGES = new Set(['RCPT TO', 'DATA']);

/**
 * Whose fault a refusal is decides what happens next. The server refusing the session (at connect,
 * greeting, EHLO/HELO, STARTTLS) is the provider being unavailable; refusing our login (AUTH) or our
 * sender (MAIL FROM) is about our account: both fail over to the other provider. Only a refusal of the
 * recipient (RCPT TO) or of the message (DATA), or a message nodemailer itself cannot send (no
 * recipient, over the size the server announced), is `rejected`: another provider would refuse it too.
 * A 4xx at any stage is temporary: unavailable.
 */
export function classifySmtpFailure(err: SmtpFailure): EmailFailureKind {
  const code = err.responseCode ?? 0;
  const command = (err.command ?? '').toUpperCase();
  if (err.code === 'EMESSAGE' && code === 0) return 'rejected'; // larger than the server's SIZE, before sending
  if (command === 'API' && err.code === 'EENVELOPE') return 'rejected'; // no usable recipient
  // SES: "554 Message rejected: Email address is not verified" is our sender, whatever the stage.
  if (code === 535 || command.startsWith('AUTH') || (code === 554 && /not verified|account/i.test(err.message)))
    return 'account';
  if (code >= 500 && code < 600) {
    if (MESSAGE_STAGES.has(command)) return 'rejected';
    if (command === 'MAIL FROM') return 'account';
  }
  return 'unavailable';
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
      const headers: Record<string, string> = { ...m.headers, 'X-Platform-Message-Key': m.key };
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
          ...(m.attachments?.length
            ? {
                attachments: m.attachments.map((a) => ({
                  filename: a.filename,
                  content: Buffer.from(a.contentBase64, 'base64'),
                  contentType: a.contentType,
                })),
              }
            : {}),
          headers,
        });
        // SES answers "250 Ok <ses message id>"; other relays keep our Message-ID.
        const ses = /^250 Ok (\S+)/i.exec(String(info.response));
        return { provider: o.name, providerMessageId: ses?.[1] ?? info.messageId };
      } catch (e) {
        const err = e as SmtpFailure;
        const what =
          `${o.name}: ${err.responseCode ? `SMTP ${err.responseCode} ` : ''}${err.command ? `at ${err.command} ` : ''}${err.code ?? ''} ${err.message}`.slice(
            0,
            300,
          );
        throw new EmailSendError(classifySmtpFailure(err), what, o.name);
      }
    },
    close: async () => transport.close(),
  };
}
