/**
 * SNS signature rules against the local signer: SignatureVersion 2 (SHA256) and 1 (SHA1) verify;
 * stale messages, HTTP or foreign certificate URLs, unexpected topics and a certificate that does
 * not match the signature are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningLocalSns, startLocalSns } from './local/local-sns.signer.js';
import { parseSesNotification } from './sns/ses-notification.js';
import { type SnsEnvelope, snsStringToSign, SnsVerifier } from './sns/sns-signature.js';

let sns: RunningLocalSns;
let other: RunningLocalSns;
beforeAll(async () => {
  [sns, other] = await Promise.all([startLocalSns(), startLocalSns()]);
});
afterAll(async () => Promise.all([sns.close(), other.close()]));

const verifier = (o: Partial<ConstructorParameters<typeof SnsVerifier>[0]> = {}) =>
  new SnsVerifier({
    allowedTopicArns: [sns.topicArn],
    certHostPattern: /^127\.0\.0\.1$/,
    allowLoopback: true,
    ...o,
  });

describe('SNS signatures', () => {
  it('verifies SignatureVersion 2 notifications and confirmations', async () => {
    expect(await verifier().verify(sns.sesBounce({ email: 'a@example.com', sesMessageId: 'm1' }))).toMatchObject({
      ok: true,
    });
    expect(await verifier().verify(sns.subscriptionConfirmation())).toMatchObject({ ok: true });
  });

  it("refuses a message signed by another key than the certificate's", async () => {
    const forged = {
      ...other.sesBounce({ email: 'a@example.com', sesMessageId: 'm1' }),
      SigningCertURL: sns.certUrl,
      TopicArn: sns.topicArn,
    };
    expect(await verifier().verify(forged)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses stale messages, HTTP certificates unless allowed for loopback, foreign hosts and unknown topics', async () => {
    const m = sns.sesBounce({ email: 'a@example.com', sesMessageId: 'm1' });
    expect(await verifier({ now: () => Date.now() + 2 * 3_600_000 }).verify(m)).toEqual({ ok: false, reason: 'stale' });
    expect(await verifier({ allowLoopback: false }).verify(m)).toEqual({ ok: false, reason: 'bad_cert_url' });
    expect(await verifier({ certHostPattern: undefined }).verify(m)).toEqual({ ok: false, reason: 'bad_cert_url' });
    expect(await verifier({ allowedTopicArns: ['arn:aws:sns:us-east-1:1:other'] }).verify(m)).toEqual({
      ok: false,
      reason: 'unexpected_topic',
    });
    expect(await verifier().verify({ ...m, Type: 'Bogus' })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('builds the documented string to sign (Subject only when present)', () => {
    const e = { Type: 'Notification', MessageId: 'id', TopicArn: 'arn', Message: 'msg', Timestamp: 't' } as SnsEnvelope;
    expect(snsStringToSign(e)).toBe('Message\nmsg\nMessageId\nid\nTimestamp\nt\nTopicArn\narn\nType\nNotification\n');
    expect(snsStringToSign({ ...e, Subject: 's' })).toContain('MessageId\nid\nSubject\ns\nTimestamp');
  });

  it('parses SES bounces for every recipient and tells permanent from transient', () => {
    const m = JSON.stringify({
      notificationType: 'Bounce',
      bounce: {
        bounceType: 'Permanent',
        feedbackId: 'f',
        bouncedRecipients: [{ emailAddress: 'a@x.test' }, { emailAddress: 'b@x.test' }],
      },
      mail: { messageId: 'ses-1', tags: { tenant_id: ['t1'] } },
      newField: { tolerated: true },
    });
    expect(parseSesNotification(m, 'sns-1').map((e) => [e.kind, e.email, e.providerMessageId, e.tenantHint])).toEqual([
      ['hard_bounce', 'a@x.test', 'ses-1', 't1'],
      ['hard_bounce', 'b@x.test', 'ses-1', 't1'],
    ]);
    expect(parseSesNotification(m.replace('Permanent', 'Transient'), 'sns-1')[0]?.kind).toBe('soft_bounce');
    expect(parseSesNotification('not json', 'x')).toEqual([]);
  });
});

describe('SignatureVersion 1', () => {
  it('verifies SHA1 signatures, and the version decides the algorithm', async () => {
    const e = sns.sesBounce({ email: 'a@example.com', sesMessageId: 'm1' });
    expect(await verifier().verify(sns.resign(e, '1'))).toMatchObject({ ok: true });
    expect(await verifier().verify({ ...e, SignatureVersion: '1' })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await verifier().verify({ ...e, SignatureVersion: '3' })).toEqual({ ok: false, reason: 'bad_signature' });
  });
});
