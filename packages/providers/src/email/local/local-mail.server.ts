/**
 * LOCAL mailbox for the embedded default and tests only: a real SMTP server on loopback
 * (smtp-server) that takes every message the platform sends, parses it (mailparser) and keeps it, so
 * quote, invitation and password-reset emails can be read with nothing configured and nothing leaving
 * the machine. Messages are kept in a JSON file (mode 0600: they carry portal links and reset tokens),
 * newest last, at most `maxMessages`, and survive a restart. It answers DATA with `250 Ok <id>`.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

import { arrivalWaiters } from './arrival-waiters.js';

export interface LocalMailMessage {
  id: string;
  receivedAt: string;
  /** The SMTP envelope's recipients. */
  envelopeTo: string[];
  from: string;
  to: string;
  subject: string;
  text: string;
  /** The rendered HTML part, or '' for a text-only message. */
  html: string;
  messageId: string | undefined;
}

export interface LocalMailOptions {
  /** Where the messages are kept (created mode 0600); without it they live in memory only. */
  storeFile?: string;
  /** Oldest dropped beyond this (default 500). */
  maxMessages?: number;
  host?: string;
  port?: number;
}

export interface RunningLocalMail {
  /** `smtp://127.0.0.1:<port>`: what EMAIL_SMTP_URL points at. */
  url: string;
  /** Oldest first. */
  readonly messages: readonly LocalMailMessage[];
  /** Resolves when `n` messages are held in total. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const addressText = (a: AddressObject | AddressObject[] | undefined): string =>
  (Array.isArray(a) ? a : a ? [a] : []).map((x) => x.text).join(', ');

function load(file: string | undefined): LocalMailMessage[] {
  if (!file || !existsSync(file)) return [];
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(parsed) ? (parsed as LocalMailMessage[]) : [];
  } catch {
    return []; // a torn or hand-edited file: start an empty mailbox rather than refuse to start
  }
}

/** Whole-file replace: a crash mid-write leaves the previous mailbox, never half of one. */
function save(file: string, messages: LocalMailMessage[]): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(messages), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

export async function startLocalMail(o: LocalMailOptions = {}): Promise<RunningLocalMail> {
  const max = o.maxMessages ?? 500;
  const messages = load(o.storeFile);
  if (o.storeFile && existsSync(o.storeFile)) chmodSync(o.storeFile, 0o600);
  const arrivals = arrivalWaiters(() => messages.length, 'messages');
  const keep = (m: LocalMailMessage) => {
    messages.push(m);
    if (messages.length > max) messages.splice(0, messages.length - max);
    if (o.storeFile) save(o.storeFile, messages);
    arrivals.arrived();
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    banner: 'local mail stand-in (embedded mode; nothing leaves this machine)',
    onData(stream, session, callback) {
      const id = randomUUID();
      simpleParser(stream).then(
        (p) => {
          keep({
            id,
            receivedAt: new Date().toISOString(),
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            from: addressText(p.from),
            to: addressText(p.to),
            subject: p.subject ?? '',
            text: p.text ?? '',
            html: typeof p.html === 'string' ? p.html : '',
            messageId: p.messageId,
          });
          callback(null, `Ok ${id}`);
        },
        (e: Error) => callback(e),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${o.host ?? '127.0.0.1'}:${port}`,
    messages,
    waitFor: arrivals.waitFor,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
