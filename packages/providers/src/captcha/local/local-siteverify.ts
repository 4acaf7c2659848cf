/**
 * LOCAL stand-in for reCAPTCHA v3, for embedded mode and tests only: it is a fake of the
 * outside world, not a bot check. It speaks the siteverify protocol exactly (form-encoded POST
 * in; `{success, score, action, challenge_ts, hostname, error-codes}` out, always HTTP 200 like
 * Google), and mints tokens that verify once and expire after 2 minutes. This is the protocol
 * core; its HTTP routes and browser script are in local-captcha.routes.ts.
 *
 * Token state lives in memory, bounded (oldest evicted first).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

import { type Clock, systemClock } from '@platform/kernel';

import { normalizeHostname } from '../hostname.js';

export const LOCAL_TOKEN_TTL_MS = 2 * 60 * 1000;
export const LOCAL_DEFAULT_SCORE = 0.9;
export const LOCAL_DEFAULT_MAX_TOKENS = 10_000;

/** Siteverify error codes (reCAPTCHA's names). */
export type SiteverifyErrorCode =
  | 'missing-input-secret'
  | 'invalid-input-secret'
  | 'missing-input-response'
  | 'invalid-input-response'
  | 'timeout-or-duplicate'
  | 'bad-request';

export interface SiteverifyWireResponse {
  success: boolean;
  score?: number;
  action?: string;
  challenge_ts?: string;
  hostname?: string;
  'error-codes': SiteverifyErrorCode[];
}

export interface MintTokenInput {
  action: string;
  hostname: string;
  /** 0..1, default 0.9. */
  score?: number;
}

interface TokenRecord {
  action: string;
  hostname: string;
  score: number;
  issuedAtMs: number;
  used: boolean;
}

export interface LocalSiteverifyOptions {
  secret: string;
  clock?: Clock;
  /** Token lifetime, default 2 minutes (reCAPTCHA's). */
  ttlMs?: number;
  /** Most tokens kept in memory; the oldest is evicted past this (default 10 000). */
  maxTokens?: number;
}

/** Action names: letters, digits, `/` and `_` (reCAPTCHA's documented charset). */
const ACTION_RE = /^[A-Za-z0-9/_]{1,100}$/;

export class InvalidMintRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidMintRequestError';
  }
}

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** ISO-8601 without milliseconds, like Google's `2026-01-01T12:00:00Z`. */
function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The protocol core, without HTTP: mint tokens, answer siteverify requests. */
export class LocalSiteverify {
  private readonly secret: string;
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly maxTokens: number;
  private readonly tokens = new Map<string, TokenRecord>();

  constructor(opts: LocalSiteverifyOptions) {
    if (!opts.secret) throw new Error('local siteverify: secret is required');
    this.secret = opts.secret;
    this.clock = opts.clock ?? systemClock;
    this.ttlMs = opts.ttlMs ?? LOCAL_TOKEN_TTL_MS;
    this.maxTokens = Math.max(1, opts.maxTokens ?? LOCAL_DEFAULT_MAX_TOKENS);
  }

  /** Number of tokens currently held (used, expired and fresh). */
  get size(): number {
    return this.tokens.size;
  }

  mint(input: MintTokenInput): string {
    if (typeof input.action !== 'string' || !ACTION_RE.test(input.action)) {
      throw new InvalidMintRequestError('action must be 1-100 letters, digits, "/" or "_"');
    }
    const hostname = typeof input.hostname === 'string' ? normalizeHostname(input.hostname) : '';
    if (hostname === '') throw new InvalidMintRequestError('hostname is required');
    const score = input.score ?? LOCAL_DEFAULT_SCORE;
    if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
      throw new InvalidMintRequestError('score must be a number between 0 and 1');
    }
    const token = `local.${randomBytes(32).toString('base64url')}`;
    while (this.tokens.size >= this.maxTokens) {
      const oldest = this.tokens.keys().next();
      if (oldest.done) break;
      this.tokens.delete(oldest.value);
    }
    this.tokens.set(token, {
      action: input.action,
      hostname,
      score,
      issuedAtMs: this.clock.now().getTime(),
      used: false,
    });
    return token;
  }

  /** Answers one siteverify request, given its decoded form fields. */
  verify(form: {
    secret?: string | undefined;
    response?: string | undefined;
    remoteip?: string | undefined;
  }): SiteverifyWireResponse {
    const secret = form.secret ?? '';
    const response = form.response ?? '';
    if (secret === '') return { success: false, 'error-codes': ['missing-input-secret'] };
    if (!safeEqual(secret, this.secret)) return { success: false, 'error-codes': ['invalid-input-secret'] };
    if (response === '') return { success: false, 'error-codes': ['missing-input-response'] };
    const rec = this.tokens.get(response);
    if (!rec) return { success: false, 'error-codes': ['invalid-input-response'] };
    const now = this.clock.now().getTime();
    if (rec.used || now - rec.issuedAtMs > this.ttlMs) {
      rec.used = true;
      return { success: false, 'error-codes': ['timeout-or-duplicate'] };
    }
    rec.used = true;
    return {
      success: true,
      score: rec.score,
      action: rec.action,
      challenge_ts: isoSeconds(rec.issuedAtMs),
      hostname: rec.hostname,
      'error-codes': [],
    };
  }
}

export function createLocalSiteverify(opts: LocalSiteverifyOptions): LocalSiteverify {
  return new LocalSiteverify(opts);
}
