/**
 * The SMS stand-in's page in the local console: `GET /sms` is a customer's phone: the texts the
 * stand-in carried (newest first) and a form that texts one of our lines from any number, as a
 * customer would (STOP, START, HELP or anything); the form posts to `POST /sms/inbound`, which also
 * takes JSON for scripts. The stand-in sends the text to the tenant owning the line.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { RunningLocalSms } from '@platform/providers/local';
import { escapeHtml as esc } from '@platform/web/escape-html.js';

const CSP = "default-src 'self'; style-src 'unsafe-inline'";

function page(sms: RunningLocalSms, from: string): string {
  const lines = [...new Set(sms.messages.map((m) => m.line))];
  const rows = [...sms.messages]
    .reverse()
    .slice(0, 200)
    .map(
      (m) =>
        `<tr><td>${esc(m.createdAt.toISOString())}</td><td>${m.direction === 'Incoming' ? `+${esc(m.contact)} → +${esc(m.line)}` : `+${esc(m.line)} → +${esc(m.contact)}`}</td><td>${esc(m.body)}</td><td>${esc(m.status)}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>SMS stand-in</title></head>
<body style="font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem"><h1>SMS stand-in</h1>
<form method="post" action="/sms/inbound"><h2>Text one of our lines, as a customer</h2>
<p><label for="from">From (the customer's number)</label><br><input id="from" name="from" required value="${esc(from)}" autocomplete="off"></p>
<p><label for="to">To (one of our lines)</label><br><input id="to" name="to" required list="lines" value="${esc(lines[0] ?? '')}" autocomplete="off"><datalist id="lines">${lines.map((l) => `<option value="${esc(l)}">`).join('')}</datalist></p>
<p><label for="body">Text (STOP, START, HELP or anything)</label><br><input id="body" name="body" required></p>
<button type="submit">Send text</button></form>
<h2>Texts</h2><table><thead><tr><th>At</th><th>From → to</th><th>Text</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}

/** Serves `GET /sms` and `POST /sms/inbound`; false when the request is neither. */
export async function serveSmsConsole(
  req: IncomingMessage,
  res: ServerResponse,
  sms: RunningLocalSms,
): Promise<boolean> {
  const [path, query = ''] = (req.url ?? '/').split('?');
  if (req.method === 'GET' && path === '/sms') {
    const from = new URLSearchParams(query).get('from') ?? '';
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP })
      .end(page(sms, from));
    return true;
  }
  if (req.method !== 'POST' || path !== '/sms/inbound') return false;
  // As the accounting controls: a web page open in the same browser must not text for the person.
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host ?? ''}`) {
    res
      .writeHead(403, { 'content-type': 'application/json' })
      .end('{"error":"texts are sent from the console itself only"}\n');
    return true;
  }
  let raw = '';
  for await (const chunk of req) raw += String(chunk);
  // `curl -d '{…}'` labels JSON as a form: the body's first character decides.
  const form = !raw.trimStart().startsWith('{');
  const b = (form ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw || '{}')) as Record<string, unknown>;
  if (typeof b.from !== 'string' || typeof b.to !== 'string' || typeof b.body !== 'string' || !b.body.trim()) {
    res
      .writeHead(422, { 'content-type': 'application/json' })
      .end(`${JSON.stringify({ error: 'from, to (one of our SMS lines) and body are required strings' })}\n`);
    return true;
  }
  const sent = await sms.simulateInbound({ from: b.from, to: b.to, body: b.body });
  // A person's form comes back to the phone's page; a script gets the stand-in's ids.
  if (form) res.writeHead(303, { location: `/sms?from=${encodeURIComponent(b.from)}` }).end();
  else res.writeHead(202, { 'content-type': 'application/json' }).end(`${JSON.stringify(sent, null, 2)}\n`);
  return true;
}
