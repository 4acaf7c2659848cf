/** A message's attachment (a quote's PDF) leaves through SMTP as a MIME part the mail client offers as a file. */
import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';
import { afterAll, expect, it } from 'vitest';

import type { EmailMessage } from '../email.port.js';
import { createSmtpSender } from './smtp-email.sender.js';

const received: string[] = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData: (stream, _s, cb) => {
    let raw = '';
    stream.on('data', (d: Buffer) => (raw += d.toString('latin1')));
    stream.on('end', () => (received.push(raw), cb(null, 'Ok')));
  },
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

it('sends the attachment as an application/pdf part with its file name', async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  const pdf = Buffer.from('%PDF-1.3\n% a tiny document\n%%EOF\n');
  const message: EmailMessage = {
    id: '3f1c8a52-6f2e-4a55-9c1e-3b2f8d7e1a11',
    tenantId: '5f0c8a52-6f2e-4a55-9c1e-3b2f8d7e1a10',
    key: 'k-attach',
    lane: 'transactional',
    from: { address: 'no-reply@platform.test' },
    to: { address: 'jane@example.com' },
    subject: 'Your quote',
    text: 'Your quote is attached.',
    html: '<p>Your quote is attached.</p>',
    tags: [],
    attachments: [
      { filename: 'quote-S00012.pdf', contentType: 'application/pdf', contentBase64: pdf.toString('base64') },
    ],
  };
  const sender = createSmtpSender({ name: 'smtp', url: `smtp://127.0.0.1:${port}`, messageIdDomain: 'platform.test' });
  await sender.send(message);
  await sender.close?.();
  const raw = received[0]!;
  expect(raw).toMatch(/Content-Type: application\/pdf; name=quote-S00012\.pdf/);
  expect(raw).toMatch(/Content-Disposition: attachment; filename=quote-S00012\.pdf/);
  expect(raw.replace(/\r\n/g, '')).toContain(pdf.toString('base64'));
});
