/**
 * LOCAL Amazon SNS stand-in for SES notifications, for tests only: it holds an RSA key and a
 * self-signed signing certificate, serves the certificate over HTTP on loopback (the verifier must
 * be configured to allow that host), signs envelopes exactly as SNS does (SignatureVersion 2,
 * SHA256 over the documented string to sign), and records subscription confirmations made by
 * GETting its SubscribeURL.
 */
import { createSign, randomUUID } from 'node:crypto';

import Fastify from 'fastify';
import { generate } from 'selfsigned';

import { type SnsEnvelope, snsStringToSign } from '../sns/sns-signature.js';

export interface RunningLocalSns {
  url: string;
  topicArn: string;
  certUrl: string;
  confirmedTokens: string[];
  notification(message: unknown, subject?: string): SnsEnvelope;
  subscriptionConfirmation(): SnsEnvelope;
  /** SES bounce / complaint notifications as SES publishes them. */
  sesBounce(e: {
    email: string;
    sesMessageId: string;
    tenantId?: string;
    bounceType?: 'Permanent' | 'Transient';
  }): SnsEnvelope;
  sesComplaint(e: { email: string; sesMessageId: string; tenantId?: string }): SnsEnvelope;
  /** Signs the envelope again, as SignatureVersion 1 (SHA1) or 2 (SHA256). */
  resign(e: SnsEnvelope, version: '1' | '2'): SnsEnvelope;
  close(): Promise<void>;
}

export async function startLocalSns(o: { topicArn?: string } = {}): Promise<RunningLocalSns> {
  const pems = await generate([{ name: 'commonName', value: 'sns.local-stand-in.amazonaws.com' }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  const app = Fastify({ logger: false });
  const confirmedTokens: string[] = [];
  app.get('/SimpleNotificationService-local.pem', async (_req, reply) =>
    reply.type('application/x-pem-file').send(pems.cert),
  );
  app.get('/confirm', async (req, reply) => {
    confirmedTokens.push(String((req.query as Record<string, string>).Token));
    return reply
      .type('text/xml')
      .send(
        '<ConfirmSubscriptionResponse><ConfirmSubscriptionResult><SubscriptionArn>local</SubscriptionArn></ConfirmSubscriptionResult></ConfirmSubscriptionResponse>',
      );
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const topicArn = o.topicArn ?? 'arn:aws:sns:us-east-1:123456789012:ses-feedback';
  const certUrl = `${url}/SimpleNotificationService-local.pem`;
  const sign = (e: Omit<SnsEnvelope, 'Signature'>): SnsEnvelope => {
    const s = createSign(e.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      .update(snsStringToSign(e as SnsEnvelope), 'utf8')
      .sign(pems.private, 'base64');
    return { ...e, Signature: s } as SnsEnvelope;
  };
  const base = () => ({
    MessageId: randomUUID(),
    TopicArn: topicArn,
    Timestamp: new Date().toISOString(),
    SignatureVersion: '2',
    SigningCertURL: certUrl,
  });
  const mail = (id: string, tenantId?: string) => ({
    timestamp: new Date().toISOString(),
    messageId: id,
    source: 'no-reply@example.com',
    ...(tenantId ? { tags: { tenant_id: [tenantId] } } : {}),
  });
  const notification = (message: unknown, subject?: string) =>
    sign({
      Type: 'Notification',
      ...base(),
      Message: typeof message === 'string' ? message : JSON.stringify(message),
      ...(subject ? { Subject: subject } : {}),
    });
  return {
    url,
    topicArn,
    certUrl,
    confirmedTokens,
    notification,
    subscriptionConfirmation: () => {
      const token = randomUUID().replace(/-/g, '');
      return sign({
        Type: 'SubscriptionConfirmation',
        ...base(),
        Token: token,
        SubscribeURL: `${url}/confirm?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(topicArn)}&Token=${token}`,
        Message: `You have chosen to subscribe to the topic ${topicArn}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
      });
    },
    sesBounce: (e) =>
      notification({
        notificationType: 'Bounce',
        bounce: {
          bounceType: e.bounceType ?? 'Permanent',
          bounceSubType: 'General',
          feedbackId: randomUUID(),
          timestamp: new Date().toISOString(),
          bouncedRecipients: [
            {
              emailAddress: e.email,
              action: 'failed',
              status: '5.1.1',
              diagnosticCode: 'smtp; 550 5.1.1 user unknown',
            },
          ],
        },
        mail: mail(e.sesMessageId, e.tenantId),
      }),
    sesComplaint: (e) =>
      notification({
        notificationType: 'Complaint',
        complaint: {
          feedbackId: randomUUID(),
          timestamp: new Date().toISOString(),
          complaintFeedbackType: 'abuse',
          complainedRecipients: [{ emailAddress: e.email }],
        },
        mail: mail(e.sesMessageId, e.tenantId),
      }),
    resign: (e, version) => {
      const { Signature: _old, ...rest } = e;
      return sign({ ...rest, SignatureVersion: version });
    },
    close: () => app.close(),
  };
}
