/**
 * LOCAL Postmark stand-in speaking Postmark's `POST /email` protocol, for the embedded default and
 * tests only. It checks `X-Postmark-Server-Token` (401 with ErrorCode 10 otherwise), validates the
 * message (422 ErrorCode 300), answers `{To, SubmittedAt, MessageID, ErrorCode: 0, Message: 'OK'}`
 * and delivers the message over SMTP to `relaySmtpUrl` (as Postmark delivers to the recipient's
 * mail server), adding Postmark's `X-PM-Message-Id` header. `failWith` makes it answer like an
 * outage (503), an account refusal (422 ErrorCode 405) or an invalid request (422 ErrorCode 300)
 * until cleared.
 */
import { randomUUID } from 'node:crypto';

import Fastify from 'fastify';
import nodemailer from 'nodemailer';

import { registerLocalPostmarkDomains, type StandInDns } from './local-postmark.domains.js';

export interface LocalPostmarkOptions {
  serverToken: string;
  relaySmtpUrl?: string;
  /** Enables the Domains API (local-postmark.domains.ts) with this account token. */
  accountToken?: string;
  /** DNS the Domains API checks records with. */
  dns?: StandInDns;
  host?: string;
  port?: number;
}

export type LocalPostmarkFailure = 'unavailable' | 'account' | 'invalid' | undefined;

export interface LocalPostmarkSent {
  messageId: string;
  from: string;
  to: string;
  subject: string;
  stream: string;
  metadata: Record<string, unknown>;
}

export interface RunningLocalPostmark {
  url: string;
  sent: LocalPostmarkSent[];
  /** Requests received, including refused ones. */
  requests: number;
  failWith(kind: LocalPostmarkFailure): void;
  close(): Promise<void>;
}

export async function startLocalPostmark(o: LocalPostmarkOptions): Promise<RunningLocalPostmark> {
  const app = Fastify({ logger: false });
  const relay = o.relaySmtpUrl
    ? nodemailer.createTransport({
        host: new URL(o.relaySmtpUrl).hostname,
        port: Number(new URL(o.relaySmtpUrl).port),
        secure: false,
        ignoreTLS: true,
        pool: true,
      })
    : undefined;
  let failure: LocalPostmarkFailure;
  if (o.accountToken) registerLocalPostmarkDomains(app, o.accountToken, o.dns);
  const state = { sent: [] as LocalPostmarkSent[], requests: 0 };
  app.post('/email', async (req, reply) => {
    state.requests++;
    if (req.headers['x-postmark-server-token'] !== o.serverToken)
      return reply.code(401).send({ ErrorCode: 10, Message: 'Bad or missing Server API token.' });
    if (failure === 'unavailable')
      return reply.code(503).send({ ErrorCode: 0, Message: 'Service unavailable (local stand-in)' });
    if (failure === 'invalid')
      return reply.code(422).send({ ErrorCode: 300, Message: 'Invalid email request (local stand-in).' });
    if (failure === 'account')
      return reply
        .code(422)
        .send({ ErrorCode: 405, Message: 'Not allowed to send: your account has run out of credits.' });
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (
      typeof b.From !== 'string' ||
      typeof b.To !== 'string' ||
      typeof b.Subject !== 'string' ||
      (!b.TextBody && !b.HtmlBody)
    )
      return reply
        .code(422)
        .send({ ErrorCode: 300, Message: 'Invalid email request: From, To, Subject and a body are required.' });
    const messageId = randomUUID();
    const headers = Object.fromEntries(
      (Array.isArray(b.Headers) ? (b.Headers as { Name: string; Value: string }[]) : []).map((h) => [h.Name, h.Value]),
    );
    if (relay) {
      await relay.sendMail({
        from: b.From,
        to: b.To,
        ...(typeof b.ReplyTo === 'string' ? { replyTo: b.ReplyTo } : {}),
        subject: b.Subject,
        ...(typeof b.TextBody === 'string' ? { text: b.TextBody } : {}),
        ...(typeof b.HtmlBody === 'string' ? { html: b.HtmlBody } : {}),
        headers: { ...headers, 'X-PM-Message-Id': messageId },
      });
    }
    state.sent.push({
      messageId,
      from: b.From,
      to: b.To,
      subject: b.Subject,
      stream: String(b.MessageStream ?? 'outbound'),
      metadata: (b.Metadata as Record<string, unknown>) ?? {},
    });
    return { To: b.To, SubmittedAt: new Date().toISOString(), MessageID: messageId, ErrorCode: 0, Message: 'OK' };
  });
  await app.listen({ port: o.port ?? 0, host: o.host ?? '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://${o.host ?? '127.0.0.1'}:${port}`,
    get sent() {
      return state.sent;
    },
    get requests() {
      return state.requests;
    },
    failWith: (kind) => {
      failure = kind;
    },
    close: async () => {
      relay?.close();
      await app.close();
    },
  };
}

/** A Postmark bounce or spam-complaint webhook body, as Postmark posts it. */
export function postmarkBounceBody(e: {
  email: string;
  messageId: string;
  type: 'HardBounce' | 'SoftBounce' | 'SpamComplaint';
  tenantId?: string;
  id?: number;
}): Record<string, unknown> {
  const complaint = e.type === 'SpamComplaint';
  return {
    RecordType: complaint ? 'SpamComplaint' : 'Bounce',
    ID: e.id ?? Math.floor(Math.random() * 1e12),
    Type: e.type,
    TypeCode: complaint ? 512 : e.type === 'HardBounce' ? 1 : 4096,
    MessageID: e.messageId,
    Email: e.email,
    BouncedAt: new Date().toISOString(),
    Inactive: e.type !== 'SoftBounce',
    CanActivate: !complaint,
    Description: complaint
      ? 'The subscriber explicitly marked this message as spam.'
      : 'The server was unable to deliver your message.',
    Metadata: e.tenantId ? { tenant_id: e.tenantId } : {},
    MessageStream: 'outbound',
  };
}
