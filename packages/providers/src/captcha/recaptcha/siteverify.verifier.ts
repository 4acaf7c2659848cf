/**
 * reCAPTCHA v3 adapter: calls a siteverify endpoint (Google's, or the local stand-in, which
 * speaks the same protocol) and turns the answer into a `CaptchaVerdict`.
 *
 * Checks, in order: `success`, hostname in the allow-list, `action` equals the expected action,
 * `score >= minScore`. The secret is only ever put in the request body: it is never logged,
 * never returned and never part of an error message.
 */
import { AppError } from '@platform/kernel';

import type { CaptchaFailureReason, CaptchaVerdict, CaptchaVerifier, CaptchaVerifyInput } from '../captcha.port.js';
import { hostnameAllowed, isHostnameAllowListEntry, normalizeHostname } from '../hostname.js';
import { FormPostError, postForm } from './form-post.js';

export const GOOGLE_SITEVERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';
export const DEFAULT_CAPTCHA_TIMEOUT_MS = 3_000;
export const DEFAULT_MIN_SCORE = 0.5;

export interface SiteverifyVerifierOptions {
  /** e.g. GOOGLE_SITEVERIFY_URL, or `http://127.0.0.1:PORT/local-captcha/siteverify` in embedded mode. */
  verifyUrl: string;
  /** The secret key (CAPTCHA_SECRET_KEY), passed in by the caller; never read from the environment here. */
  secret: string;
  /** 0..1; Google's suggested default is 0.5. */
  minScore: number;
  /** Hostnames the token may come from: exact names, or `*.example.com` for its subdomains (not itself). */
  allowedHostnames: string[];
  /** Abort the call after this many milliseconds (default 3000). */
  timeoutMs?: number;
  /** How the form reaches siteverify; default one POST over node:http(s). See embedded-bot-check.ts. */
  post?: FormPoster;
}

/** Sends the form-encoded body to siteverify and returns the raw answer. */
export type FormPoster = (
  url: string | URL,
  form: string,
  timeoutMs: number,
) => Promise<{ status: number; text: string }>;

/** Wire shape of a siteverify answer. */
interface SiteverifyResponse {
  success?: unknown;
  score?: unknown;
  action?: unknown;
  challenge_ts?: unknown;
  hostname?: unknown;
  'error-codes'?: unknown;
}

const ERROR_CODE_REASONS: Record<string, CaptchaFailureReason> = {
  'missing-input-response': 'missing',
  'invalid-input-response': 'invalid_token',
  'timeout-or-duplicate': 'duplicate_or_expired',
};

function unavailable(message: string, details?: Record<string, unknown>): AppError {
  return new AppError('CAPTCHA_UNAVAILABLE', message, details === undefined ? {} : { details });
}

export function createSiteverifyVerifier(opts: SiteverifyVerifierOptions): CaptchaVerifier {
  const { verifyUrl, secret, minScore } = opts;
  const post = opts.post ?? postForm;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CAPTCHA_TIMEOUT_MS;
  const allowed = [...opts.allowedHostnames];
  if (!verifyUrl) throw new AppError('CONFIG_INVALID', 'siteverify verifier: verifyUrl is required');
  if (!secret) throw new AppError('CONFIG_INVALID', 'siteverify verifier: secret is required');
  if (!(Number.isFinite(minScore) && minScore >= 0 && minScore <= 1)) {
    throw new AppError('CONFIG_INVALID', 'siteverify verifier: minScore must be between 0 and 1');
  }
  if (allowed.length === 0) {
    throw new AppError('CONFIG_INVALID', 'siteverify verifier: allowedHostnames must not be empty');
  }
  const badEntry = allowed.find((e) => !isHostnameAllowListEntry(e));
  if (badEntry !== undefined) {
    throw new AppError(
      'CONFIG_INVALID',
      `siteverify verifier: allowedHostnames entry "${badEntry}" is neither a host name nor *.example.com`,
    );
  }
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new AppError('CONFIG_INVALID', 'siteverify verifier: timeoutMs must be positive');
  }

  // Parsed once; a URL that does not parse stays a string and fails on each call, as before.
  let target: string | URL = verifyUrl;
  try {
    target = new URL(verifyUrl);
  } catch {
    /* reported per call as CAPTCHA_UNAVAILABLE (unreachable) */
  }

  async function call(input: CaptchaVerifyInput): Promise<SiteverifyResponse> {
    const form = new URLSearchParams();
    form.set('secret', secret);
    form.set('response', input.token);
    if (input.remoteIp) form.set('remoteip', input.remoteIp);

    let res: { status: number; text: string };
    try {
      res = await post(target, form.toString(), timeoutMs);
    } catch (e) {
      const timedOut = e instanceof FormPostError && e.kind === 'timeout';
      throw unavailable(
        timedOut ? `Bot-check verifier timed out after ${timeoutMs} ms` : 'Bot-check verifier unreachable',
        {
          kind: timedOut ? 'timeout' : 'network',
        },
      );
    }
    const text = res.text;
    if (res.status < 200 || res.status > 299)
      throw unavailable(`Bot-check verifier answered HTTP ${res.status}`, { kind: 'http', status: res.status });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw unavailable('Bot-check verifier answered with a non-JSON body', { kind: 'format', status: res.status });
    }
    if (
      body === null ||
      typeof body !== 'object' ||
      Array.isArray(body) ||
      typeof (body as SiteverifyResponse).success !== 'boolean'
    ) {
      throw unavailable('Bot-check verifier answered with an unexpected body', { kind: 'format', status: res.status });
    }
    return body as SiteverifyResponse;
  }

  return {
    async verify(input: CaptchaVerifyInput): Promise<CaptchaVerdict> {
      const token = typeof input.token === 'string' ? input.token.trim() : '';
      if (token === '') return { ok: false, reason: 'missing', errorCodes: [] };

      const body = await call({ ...input, token });
      const errorCodes = Array.isArray(body['error-codes'])
        ? body['error-codes'].filter((c): c is string => typeof c === 'string')
        : [];
      const score = typeof body.score === 'number' && Number.isFinite(body.score) ? body.score : undefined;
      const action = typeof body.action === 'string' ? body.action : undefined;
      const hostname = typeof body.hostname === 'string' ? normalizeHostname(body.hostname) : undefined;
      const seen = {
        ...(score === undefined ? {} : { score }),
        ...(action === undefined ? {} : { action }),
        ...(hostname === undefined ? {} : { hostname }),
      };

      if (body.success !== true) {
        let reason: CaptchaFailureReason = 'failed';
        for (const c of errorCodes) {
          const r = ERROR_CODE_REASONS[c];
          if (r) {
            reason = r;
            break;
          }
        }
        return { ok: false, reason, ...seen, errorCodes };
      }
      const onSite = input.siteHostname !== undefined && normalizeHostname(input.siteHostname) === hostname;
      if (hostname === undefined || !(onSite || hostnameAllowed(hostname, allowed))) {
        return { ok: false, reason: 'wrong_hostname', ...seen, errorCodes };
      }
      if (action !== input.expectedAction) {
        return { ok: false, reason: 'wrong_action', ...seen, errorCodes };
      }
      if (score === undefined) {
        // A v2 token (no score) sent to a v3 check: not something we can judge.
        return { ok: false, reason: 'failed', ...seen, errorCodes };
      }
      if (score < minScore) return { ok: false, reason: 'low_score', ...seen, errorCodes };
      return { ok: true, score, action, hostname };
    },
  };
}
