/**
 * Bot-check capability: our own types, independent of any provider. Adapters (reCAPTCHA
 * siteverify, the local stand-in) translate their wire format into a `CaptchaVerdict`.
 *
 * Contract:
 * - a verdict (`ok: true` or `ok: false`) is returned whenever the verifier answered;
 * - an unreachable or misbehaving verifier (network error, timeout, HTTP 5xx, non-JSON body)
 *   makes `verify` throw `AppError('CAPTCHA_UNAVAILABLE')`.
 */
import { AppError } from '@platform/kernel';

export type CaptchaFailureReason =
  'missing' | 'invalid_token' | 'duplicate_or_expired' | 'low_score' | 'wrong_action' | 'wrong_hostname' | 'failed';

export interface CaptchaPass {
  ok: true;
  score: number;
  action: string;
  hostname: string;
}

export interface CaptchaFailure {
  ok: false;
  reason: CaptchaFailureReason;
  score?: number;
  action?: string;
  hostname?: string;
  /** Provider error codes, e.g. `timeout-or-duplicate`; empty when the check itself failed. */
  errorCodes: string[];
}

export type CaptchaVerdict = CaptchaPass | CaptchaFailure;

export interface CaptchaVerifyInput {
  token: string;
  expectedAction: string;
  remoteIp?: string;
  /**
   * The host the form was sent to, when the caller knows it is one of its own sites (a tenant's
   * subdomain or active custom domain, resolved by host). A token minted on that very host passes the
   * hostname check even when the host is not on the static allow-list: tenants' custom domains are
   * not known at start-up.
   */
  siteHostname?: string;
}

export interface CaptchaVerifier {
  verify(input: CaptchaVerifyInput): Promise<CaptchaVerdict>;
}

/**
 * Convenience for request handlers: verify and turn a failing verdict into the platform's
 * errors. Missing token → CAPTCHA_MISSING; any other failure → CAPTCHA_REJECTED (details carry
 * the reason, never the token); an unavailable verifier propagates CAPTCHA_UNAVAILABLE.
 */
export async function requireCaptchaPass(
  verifier: CaptchaVerifier,
  input: { token: string | null | undefined; expectedAction: string; remoteIp?: string; siteHostname?: string },
): Promise<CaptchaPass> {
  const token = typeof input.token === 'string' ? input.token.trim() : '';
  if (token === '') throw new AppError('CAPTCHA_MISSING', 'Bot-check token is missing');
  const verdict = await verifier.verify({
    token,
    expectedAction: input.expectedAction,
    ...(input.remoteIp === undefined ? {} : { remoteIp: input.remoteIp }),
    ...(input.siteHostname === undefined ? {} : { siteHostname: input.siteHostname }),
  });
  if (verdict.ok) return verdict;
  if (verdict.reason === 'missing') throw new AppError('CAPTCHA_MISSING', 'Bot-check token is missing');
  throw new AppError('CAPTCHA_REJECTED', `Bot check rejected the request (${verdict.reason})`, {
    details: {
      reason: verdict.reason,
      ...(verdict.score === undefined ? {} : { score: verdict.score }),
      errorCodes: verdict.errorCodes,
    },
  });
}
