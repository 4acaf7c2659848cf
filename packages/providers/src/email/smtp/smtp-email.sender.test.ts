/**
 * Whose fault an SMTP refusal is, by the stage it came at, against real SMTP servers on loopback
 * (smtp-server, and a scripted socket for EHLO): the session refused (greeting, EHLO) is the provider
 * being unavailable, our login or sender refused (AUTH, MAIL FROM) is our account — both fail over —
 * and only the recipient (RCPT TO) or the message (DATA) refused is the message's own fault.
 * Attachments (a quote PDF) leave as MIME parts.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';

import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';

import { type EmailMessage, EmailSendError } from '../email.port.js';
import { classifySmtpFailure, createSmtpSender } from './smtp-email.sender.js';

const message: EmailMessage = {
  id: '3f1c8a52-6f2e-4a55-9c1e-3b2f8d7e1a10',
  tenantId: '5f0c8a52-6f2e-4a55-9c1e-3b2f8d7e1a10',
  key: 'k-1',
  lane: 'transactional',
  from: { address: 'no-reply@platform.test' },
  to: { address: 'jane@example.com' },
  subject: 'Hello',
  text: 'Hello',
  html: '<p>Hello</p>',
  tags: [],
};

const refusal = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function smtpServer(hooks: Partial<SMTPServerOptions>): Promise<string> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _s, cb) => (stream.on('data', () => {}), stream.on('end', () => cb(null, 'Ok'))),
    ...hooks,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

/** A server that greets, then answers EHLO and HELO with 554. */
async function refusesEhlo(): Promise<string> {
  const server: Server = createServer((sock) => {
    sock.write('220 scripted ESMTP\r\n');
    sock.on('data', (d) => {
      if (/^(EHLO|HELO)/i.test(String(d))) sock.write('554 5.7.1 no service for you\r\n');
      else if (/^QUIT/i.test(String(d))) sock.end('221 bye\r\n');
    });
    sock.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failureKind(url: string, auth?: { user: string; pass: string }): Promise<string> {
  const sender = createSmtpSender({
    name: 'primary',
    url,
    messageIdDomain: 'platform.test',
    timeoutMs: 5_000,
    ...(auth ? { auth } : {}),
  });
  try {
    await sender.send(message);
    return 'sent';
  } catch (e) {
    expect(e).toBeInstanceOf(EmailSendError);
    return (e as EmailSendError).kind;
  } finally {
    await sender.close?.();
  }
}

describe('an SMTP refusal, by stage', () => {
  it('a 554 greeting is the provider unavailable (fails over)', async () => {
    const url = await smtpServer({ onConnect: (_s, cb) => cb(refusal(554, 'service refused')) });
    expect(await failureKind(url)).toBe('unavailable');
  });

  it('a 554 to EHLO and HELO is the provider unavailable', async () => {
    expect(await failureKind(await refusesEhlo())).toBe('unavailable');
  });

  it('a refused login is our account (fails over)', async () => {
    const url = await smtpServer({
      authOptional: false,
      authMethods: ['PLAIN'],
      allowInsecureAuth: true,
      onAuth: (_a, _s, cb) => cb(refusal(535, 'bad credentials')),
    });
    expect(await failureKind(url, { user: 'u', pass: 'p' })).toBe('account');
  });

  it('a 550 to MAIL FROM is our account (fails over)', async () => {
    const url = await smtpServer({ onMailFrom: (_a, _s, cb) => cb(refusal(550, 'sender not allowed')) });
    expect(await failureKind(url)).toBe('account');
  });

  it('a 550 to RCPT TO is the message rejected (no failover)', async () => {
    const url = await smtpServer({ onRcptTo: (_a, _s, cb) => cb(refusal(550, 'no such user')) });
    expect(await failureKind(url)).toBe('rejected');
  });

  it('a 554 to DATA is the message rejected (no failover)', async () => {
    const url = await smtpServer({
      onData: (stream, _s, cb) => (stream.on('data', () => {}), stream.on('end', () => cb(refusal(554, 'spam')))),
    });
    expect(await failureKind(url)).toBe('rejected');
  });

  it('a 451 to RCPT TO is temporary: unavailable', async () => {
    const url = await smtpServer({ onRcptTo: (_a, _s, cb) => cb(refusal(451, 'try later')) });
    expect(await failureKind(url)).toBe('unavailable');
  });

  it('nothing listening is unavailable', async () => {
    expect(await failureKind('smtp://127.0.0.1:9')).toBe('unavailable');
  });
});

describe('classifySmtpFailure', () => {
  it.each([
    [{ responseCode: 554, command: 'CONN', message: 'Invalid greeting' }, 'unavailable'],
    [{ responseCode: 554, command: 'DATA', message: 'Message rejected: Email address is not verified' }, 'account'],
    [{ command: 'MAIL FROM', code: 'EMESSAGE', message: 'Message size larger than allowed 10' }, 'rejected'],
    [{ command: 'API', code: 'EENVELOPE', message: 'No recipients defined' }, 'rejected'],
    [{ command: 'CONN', code: 'ETIMEDOUT', message: 'Greeting never received' }, 'unavailable'],
  ])('%o -> %s', (err, kind) => {
    expect(classifySmtpFailure(err)).toBe(kind);
  });
});

describe('attachments', () => {
  it('sends an attachment (a quote PDF) as an application/pdf MIME part with its file name', async () => {
    const received: string[] = [];
    const url = await smtpServer({
      onData: (stream, _s, cb) => {
        let raw = '';
        stream.on('data', (d: Buffer) => (raw += d.toString('latin1')));
        stream.on('end', () => (received.push(raw), cb(null, 'Ok')));
      },
    });
    const pdf = Buffer.from('%PDF-1.3\n% a tiny document\n%%EOF\n');
    const sender = createSmtpSender({ name: 'smtp', url, messageIdDomain: 'platform.test' });
    const filename = 'quote-S00012.pdf';
    await sender.send({
      ...message,
      attachments: [{ filename, contentType: 'application/pdf', contentBase64: pdf.toString('base64') }],
    });
    await sender.close?.();
    expect(received[0]).toMatch(/Content-Type: application\/pdf; name=quote-S00012\.pdf/);
    expect(received[0]).toMatch(/Content-Disposition: attachment; filename=quote-S00012\.pdf/);
    expect(received[0]!.replace(/\r\n/g, '')).toContain(pdf.toString('base64'));
  });
});
