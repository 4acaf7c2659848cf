/**
 * HTTP face of the LOCAL reCAPTCHA v3 stand-in (protocol core: local-siteverify.ts), for embedded
 * mode and tests only. Routes (see `localCaptchaRoutes`):
 * - `POST {prefix}/siteverify` – the protocol;
 * - `POST {prefix}/token` JSON `{ action, hostname?, score?, siteKey? }` → `{ token }`;
 * - `GET  {prefix}/api.js` – a browser script defining `window.grecaptcha` (`ready`, `execute`)
 *   so that pages written for reCAPTCHA work unchanged.
 */
import type { Clock } from '@platform/kernel';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { normalizeHostname } from '../hostname.js';
import { InvalidMintRequestError, LocalSiteverify, type SiteverifyWireResponse } from './local-siteverify.js';

export interface LocalCaptchaRoutesOptions {
  secret: string;
  siteKey: string;
  /** Default `/local-captcha`. */
  prefix?: string;
  /** Share or inspect the token store (e.g. one with an injected clock in tests). */
  store?: LocalSiteverify;
  clock?: Clock;
  maxTokens?: number;
}

const FORM = 'application/x-www-form-urlencoded';

/** SiteverifyWireResponse as JSON Schema: Fastify compiles a serializer for it instead of calling JSON.stringify. */
const SITEVERIFY_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    score: { type: 'number' },
    action: { type: 'string' },
    challenge_ts: { type: 'string' },
    hostname: { type: 'string' },
    'error-codes': { type: 'array', items: { type: 'string' } },
  },
  required: ['success', 'error-codes'],
} as const;

function decodeForm(body: unknown): Record<string, string> | null {
  if (typeof body === 'string') {
    const out: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(body)) if (!(k in out)) out[k] = v;
    return out;
  }
  if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body)) {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (typeof v === 'string') out[k] = v;
      else if (Array.isArray(v) && typeof v[0] === 'string') out[k] = v[0];
    }
    return out;
  }
  return null;
}

function parseJsonish(body: unknown): Record<string, unknown> | null {
  let v: unknown = body;
  if (typeof body === 'string') {
    try {
      v = JSON.parse(body);
    } catch {
      return null;
    }
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** The browser shim served at `{prefix}/api.js`. `tokenPath` is the absolute path of the token route. */
export function localCaptchaScript(tokenPath: string): string {
  return `/* Local reCAPTCHA v3 stand-in (embedded mode / tests only). */
(function () {
  'use strict';
  var script = document.currentScript;
  var src = script && script.src ? script.src : location.href;
  var tokenUrl = new URL(${JSON.stringify(tokenPath)}, src).href;
  var query = new URL(src, location.href).searchParams;
  var g = window.grecaptcha = window.grecaptcha || {};
  var loaded = false;
  var waiting = [];
  function run(cb) { try { cb(); } catch (e) { setTimeout(function () { throw e; }, 0); } }
  g.ready = function (cb) { if (typeof cb !== 'function') return; if (loaded) setTimeout(function () { run(cb); }, 0); else waiting.push(cb); };
  g.execute = function (siteKey, opts) {
    var action = opts && opts.action ? String(opts.action) : '';
    // text/plain keeps this a simple request: no CORS preflight when served from another origin.
    return fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ siteKey: String(siteKey), action: action, hostname: location.hostname })
    }).then(function (r) {
      if (!r.ok) throw new Error('local-captcha: token request failed with HTTP ' + r.status);
      return r.json();
    }).then(function (j) { return j.token; });
  };
  g.enterprise = g.enterprise || g;
  function bindButtons() {
    var els = document.querySelectorAll('.g-recaptcha[data-sitekey]');
    for (var i = 0; i < els.length; i++) (function (el) {
      if (el.__localCaptchaBound) return;
      el.__localCaptchaBound = true;
      el.addEventListener('click', function (ev) {
        ev.preventDefault();
        var cbName = el.getAttribute('data-callback');
        g.execute(el.getAttribute('data-sitekey'), { action: el.getAttribute('data-action') || 'submit' }).then(function (t) {
          var cb = cbName && window[cbName];
          if (typeof cb === 'function') cb(t);
        });
      });
    })(els[i]);
  }
  function finish() {
    loaded = true;
    var queued = waiting.splice(0);
    var cfg = window.___grecaptcha_cfg;
    if (cfg && cfg.fns && cfg.fns.length) queued = cfg.fns.splice(0).concat(queued);
    for (var i = 0; i < queued.length; i++) if (typeof queued[i] === 'function') run(queued[i]);
    var onload = query.get('onload');
    if (onload && typeof window[onload] === 'function') run(window[onload]);
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', bindButtons);
    else bindButtons();
  }
  setTimeout(finish, 0);
})();
`;
}

/**
 * Fastify plugin mounting the local stand-in. Works both called directly
 * (`await localCaptchaRoutes(app, opts)`) and registered (`app.register(localCaptchaRoutes, opts)`);
 * routes live in their own encapsulated scope, so the form-body parser does not leak.
 */
export async function localCaptchaRoutes(app: FastifyInstance, opts: LocalCaptchaRoutesOptions): Promise<void> {
  const prefix = (opts.prefix ?? '/local-captcha').replace(/\/+$/, '');
  const store =
    opts.store ??
    new LocalSiteverify({
      secret: opts.secret,
      ...(opts.clock ? { clock: opts.clock } : {}),
      ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}),
    });
  const siteKey = opts.siteKey;
  // When registered with `{ prefix }`, Fastify has already applied it to this instance.
  const innerPrefix = prefix !== '' && app.prefix.endsWith(prefix) ? '' : prefix;

  await app.register(
    async (scope) => {
      if (!scope.hasContentTypeParser(FORM)) {
        scope.addContentTypeParser(FORM, { parseAs: 'string' }, (_req, body, done) => done(null, body));
      }
      if (!scope.hasContentTypeParser('*')) {
        // Anything else reaches siteverify as a raw string and is answered `bad-request`.
        scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
      }

      scope.post(
        '/siteverify',
        { schema: { response: { 200: SITEVERIFY_RESPONSE_SCHEMA } } },
        async (req: FastifyRequest, reply: FastifyReply) => {
          reply.header('cache-control', 'no-store');
          const ct =
            String(req.headers['content-type'] ?? '')
              .split(';')[0]
              ?.trim()
              .toLowerCase() ?? '';
          if (!(ct === FORM || ct === ''))
            return { success: false, 'error-codes': ['bad-request'] } satisfies SiteverifyWireResponse;
          const body: unknown = req.body ?? '';
          if (typeof body === 'string') {
            // The three fields only (first value of each, as decodeForm keeps), without building a map of the form.
            const form = new URLSearchParams(body);
            return store.verify({
              secret: form.get('secret') ?? undefined,
              response: form.get('response') ?? undefined,
              remoteip: form.get('remoteip') ?? undefined,
            });
          }
          const form = decodeForm(body);
          if (form === null) return { success: false, 'error-codes': ['bad-request'] } satisfies SiteverifyWireResponse;
          return store.verify({ secret: form['secret'], response: form['response'], remoteip: form['remoteip'] });
        },
      );

      scope.post('/token', async (req: FastifyRequest, reply: FastifyReply) => {
        reply.header('cache-control', 'no-store');
        reply.header('access-control-allow-origin', '*');
        const body = parseJsonish(req.body);
        if (body === null) return reply.code(400).send({ error: 'body must be a JSON object' });
        if (body['siteKey'] !== undefined && body['siteKey'] !== siteKey) {
          return reply.code(400).send({ error: 'unknown site key' });
        }
        const hostname =
          typeof body['hostname'] === 'string' && body['hostname'] !== '' ? body['hostname'] : (req.headers.host ?? '');
        try {
          const token = store.mint({
            action: body['action'] as string,
            hostname: normalizeHostname(hostname),
            ...(body['score'] === undefined ? {} : { score: body['score'] as number }),
          });
          return { token };
        } catch (e) {
          if (e instanceof InvalidMintRequestError) return reply.code(400).send({ error: e.message });
          throw e;
        }
      });

      scope.get('/api.js', async (_req: FastifyRequest, reply: FastifyReply) => {
        reply.header('cache-control', 'no-store');
        reply.type('application/javascript; charset=utf-8');
        return localCaptchaScript(`${scope.prefix}/token`);
      });
    },
    { prefix: innerPrefix },
  );
}
