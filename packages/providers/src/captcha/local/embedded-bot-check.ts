/**
 * The embedded default's bot check: the real siteverify adapter, answered by the local stand-in's
 * token store in process. The adapter builds and reads the siteverify wire exactly as it does against
 * Google; only the socket is skipped. Why: the stand-in is served by the very host that verifies, so
 * over HTTP a form in flight while that host closes its listener (SIGTERM, a rolling restart) found
 * its own siteverify refused and was answered 503. The routes share the same store
 * (`localCaptchaRoutes({ store })`), so tokens minted by the page's script verify here.
 */
import { type CaptchaVerifier } from '../captcha.port.js';
import { createSiteverifyVerifier, type FormPoster } from '../recaptcha/siteverify.verifier.js';
import { LocalSiteverify } from './local-siteverify.js';

export const LOCAL_SITE_KEY = 'local-site-key';

export interface EmbeddedBotCheckOptions {
  secret: string;
  minScore: number;
  allowedHostnames: string[];
  timeoutMs?: number;
  maxTokens?: number;
}

export interface EmbeddedBotCheck {
  verifier: CaptchaVerifier;
  /** Mount with `localCaptchaRoutes(app, { secret, siteKey, store })`. */
  store: LocalSiteverify;
  secret: string;
  siteKey: string;
}

export function createEmbeddedBotCheck(opts: EmbeddedBotCheckOptions): EmbeddedBotCheck {
  const store = new LocalSiteverify({
    secret: opts.secret,
    ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}),
  });
  const inProcess: FormPoster = async (_url, body) => {
    const form = new URLSearchParams(body);
    const answer = store.verify({
      secret: form.get('secret') ?? undefined,
      response: form.get('response') ?? undefined,
      remoteip: form.get('remoteip') ?? undefined,
    });
    return { status: 200, text: JSON.stringify(answer) };
  };
  const verifier = createSiteverifyVerifier({
    verifyUrl: 'http://local-captcha.invalid/local-captcha/siteverify',
    secret: opts.secret,
    minScore: opts.minScore,
    allowedHostnames: opts.allowedHostnames,
    post: inProcess,
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
  });
  return { verifier, store, secret: opts.secret, siteKey: LOCAL_SITE_KEY };
}
