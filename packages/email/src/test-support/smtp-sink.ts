/**
 * A real SMTP server on loopback (smtp-server) that parses what it receives (mailparser). It
 * answers DATA like Amazon SES's SMTP interface, `250 Ok <message id>`, so the id a sender records
 * is the one a bounce notification later names.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

import { arrivalWaiters } from '@platform/providers/local';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The id answered to the client (SES style). */
  smtpId: string;
  envelopeTo: string[];
  parsed: ParsedMail;
}

export interface SmtpSink {
  url: string;
  mails: ReceivedMail[];
  /** Resolves when `n` mails have arrived in total. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpSink(opts: { parse?: boolean } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const arrivals = arrivalWaiters(() => mails.length, 'mails');
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const id = randomUUID();
      const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
      const done = (parsed: ParsedMail) => {
        mails.push({ smtpId: id, envelopeTo, parsed });
        arrivals.arrived();
        callback(null, `Ok ${id}`);
      };
      if (opts.parse === false) {
        stream.on('data', () => {});
        stream.on('end', () => done({} as ParsedMail));
      } else simpleParser(stream).then(done, (e: Error) => callback(e));
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor: arrivals.waitFor,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
