/**
 * Double-submit CSRF token of the consent form: a random value in an HttpOnly, SameSite=Strict
 * cookie and the same value in the form; the POST must carry both, equal. A cross-site page can
 * neither read the cookie nor make the browser send it.
 */
import { newSecret, sameSecret } from '@platform/credentials';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const CSRF_COOKIE = 'erp_oauth_csrf';
const PATH = '/restapi/1.0/common/oauth2';

export function readCookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** The cookie's token (a new one when there is none), set on the reply. */
export function issueCsrf(req: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookie(req, CSRF_COOKIE);
  const token = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : newSecret('');
  const secure = req.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${CSRF_COOKIE}=${token}; Path=${PATH}; HttpOnly; SameSite=Strict; Max-Age=1800${secure}`);
  return token;
}

export function csrfValid(req: FastifyRequest, formToken: unknown): boolean {
  const cookie = readCookie(req, CSRF_COOKIE);
  return typeof formToken === 'string' && !!cookie && formToken.length > 0 && sameSecret(cookie, formToken);
}
