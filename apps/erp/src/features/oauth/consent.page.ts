/**
 * The server-rendered consent page of the authorize endpoint: the user signs in with their ERP login
 * and password and approves or denies the application's scopes. Every value is HTML-escaped; the
 * page cannot be framed (clickjacking) and is never cached.
 */
import { escapeHtml } from '@platform/web/escape-html.js';
import type { FastifyReply } from 'fastify';

import type { AuthorizeParams } from './oauth.service.js';

const esc = escapeHtml;

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  // No form-action: browsers apply it to the redirect to the client after the form is posted.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
};

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}ul{padding-left:1.2rem}label{display:block;margin:.8rem 0 .2rem}input[type=text],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
.err{background:#fde8e8;border:1px solid #e0a0a0;padding:.6rem;border-radius:4px}.row{margin-top:1.2rem;display:flex;gap:.8rem}button{padding:.6rem 1.2rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function describeScope(s: string): string {
  const [kind, rest = ''] = s.split(':', 2) as [string, string?];
  if (kind === 'read') return `Read ${rest} records`;
  if (kind === 'write') return `Create, change and delete ${rest} records`;
  const dot = rest.lastIndexOf('.');
  return `Run ${rest.slice(dot + 1)} on ${rest.slice(0, dot)} records`;
}

export function consentPage(v: {
  appName: string;
  scopes: string[];
  params: AuthorizeParams;
  csrf: string;
  error?: string;
  login?: string;
}): string {
  const hidden = Object.entries(v.params)
    .filter(([, val]) => typeof val === 'string')
    .map(([k, val]) => `<input type="hidden" name="${esc(k)}" value="${esc(val as string)}">`)
    .join('');
  return page(
    `Authorise ${v.appName}`,
    `<h1>${esc(v.appName)} asks for access to the ERP</h1>
<p>Sign in with your ERP login to allow it to:</p><ul>${v.scopes.map((s) => `<li>${esc(describeScope(s))} <code>${esc(s)}</code></li>`).join('')}</ul>
${v.error ? `<p class="err" role="alert">${esc(v.error)}</p>` : ''}
<form method="post" action="/restapi/1.0/common/oauth2/authorize">${hidden}<input type="hidden" name="csrf_token" value="${esc(v.csrf)}">
<label for="login">Login</label><input type="text" id="login" name="login" autocomplete="username" required value="${esc(v.login ?? '')}">
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<div class="row"><button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny" formnovalidate>Deny</button></div>
</form>`,
  );
}

export function errorPage(message: string): string {
  return page('Authorisation error', `<h1>Authorisation error</h1><p class="err" role="alert">${esc(message)}</p>`);
}

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(html);
}
