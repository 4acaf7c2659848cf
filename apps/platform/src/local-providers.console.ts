/**
 * The local stand-ins' console (loopback, embedded mode only): `GET /` is what the SMS, chat and mail
 * stand-ins received as JSON; `GET /mail` and `/mail/<id>` are the mailbox's pages
 * (local-mail.console.ts); `GET /sms` is a customer's phone and `POST /sms/inbound {from, to, body}` makes
 * a "customer" text one of our lines (local-sms.console.ts);
 * `/acct` is the accounting stand-in's page and controls (local-accounting.console.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type {
  RunningLocalAccounting,
  RunningLocalChat,
  RunningLocalMail,
  RunningLocalSms,
} from '@platform/providers/local';

import { serveAccountingConsole } from './local-accounting.console.js';
import { MAIL_HTML_CSP, mailHtmlBody, mailLinks, renderMailList, renderMailMessage } from './local-mail.console.js';
import { serveSmsConsole } from './local-sms.console.js';

export interface ConsoleStandIns {
  sms?: RunningLocalSms | undefined;
  chat?: RunningLocalChat | undefined;
  mail?: RunningLocalMail | undefined;
  accounting?: RunningLocalAccounting | undefined;
}

function html(
  res: ServerResponse,
  status: number,
  body: string,
  csp = "default-src 'self'; style-src 'unsafe-inline'",
) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(body);
}

/** The mailbox's pages; false when the path is not one of them. */
function serveMail(req: IncomingMessage, res: ServerResponse, mail: RunningLocalMail): boolean {
  const path = (req.url ?? '/').split('?')[0]!;
  if (req.method !== 'GET') return false;
  if (path === '/mail' || path === '/mail/') return (html(res, 200, renderMailList(mail.messages)), true);
  const one = /^\/mail\/([^/]+)(\/html)?$/.exec(path);
  if (!one) return false;
  const m = mail.messages.find((x) => x.id === decodeURIComponent(one[1]!));
  if (!m)
    return (
      html(res, 404, '<!doctype html><title>Not found</title><p>No such message. <a href="/mail">All mail</a></p>'),
      true
    );
  if (one[2]) html(res, 200, mailHtmlBody(m), MAIL_HTML_CSP);
  else html(res, 200, renderMailMessage(m));
  return true;
}

export async function serveConsole(req: IncomingMessage, res: ServerResponse, p: ConsoleStandIns): Promise<void> {
  const send = (status: number, body: unknown): void =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body, null, 2)}\n`);
  try {
    if (p.mail && serveMail(req, res, p.mail)) return;
    if (p.accounting && (await serveAccountingConsole(req, res, p.accounting))) return;
    if (req.method === 'GET' && (req.url === '/' || req.url === '/messages')) {
      return send(200, {
        sms: (p.sms?.messages ?? []).map((m) => ({
          id: m.id,
          direction: m.direction,
          line: m.line,
          contact: m.contact,
          body: m.body,
          status: m.status,
          at: m.createdAt,
        })),
        chat: (p.chat?.messages ?? []).map((m) => ({
          space: m.space,
          text: m.text,
          thread: m.threadKey,
          at: m.createTime,
        })),
        accounting: (p.accounting?.tenants ?? []).map((t) => ({
          organisation: t.tenantName,
          invoices: p.accounting!.invoices(t.tenantId).map((i) => ({
            id: i['InvoiceID'],
            number: i['InvoiceNumber'],
            total: i['Total'],
            amount_due: i['AmountDue'],
            status: i['Status'],
          })),
        })),
        mail: (p.mail?.messages ?? []).map((m) => ({
          id: m.id,
          to: m.to,
          subject: m.subject,
          links: mailLinks(m),
          at: m.receivedAt,
        })),
      });
    }
    if (p.sms && (await serveSmsConsole(req, res, p.sms))) return;
    send(404, {
      error:
        'GET / lists messages; GET /mail shows the mail; GET /acct shows the accounting stand-in and its controls; GET /sms is a customer phone (texts, and a form to text our lines); POST /sms/inbound {from, to, body} texts one of our lines',
    });
  } catch (e) {
    send(400, { error: (e as Error).message });
  }
}
