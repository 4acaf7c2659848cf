/**
 * LOCAL stand-in for Meta's Graph `/{version}/{pixelId}/events` endpoint, for embedded mode and
 * tests only. It validates what Meta documents (access token present and correct, required
 * website fields, at most 1000 events, event_time within 7 days, hashed em/ph/fn/ln as 64 hex,
 * plain IP), records accepted events in memory (bounded), and answers like Graph:
 * `{ events_received, messages: [], fbtrace_id }` or
 * `{ error: { message, type: 'OAuthException', code: 190 | 100, fbtrace_id } }`.
 *
 * Three ways to run it: this `LocalCapiReceiver` core (`handle()`), or over HTTP (local-capi.server.ts)
 * as a standalone node:http server (`startLocalCapiReceiver`) or mounted on a Fastify app (`localCapiRoutes`).
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';

import { type Clock, systemClock } from '@platform/kernel';

const ACTION_SOURCES = new Set([
  'email',
  'website',
  'app',
  'phone_call',
  'chat',
  'physical_store',
  'system_generated',
  'business_messaging',
  'other',
]);
const HEX64 = /^[0-9a-f]{64}$/;
const MAX_EVENTS = 1000;
const MAX_AGE_S = 7 * 24 * 60 * 60;
const MAX_FUTURE_S = 24 * 60 * 60;

export interface LocalCapiReceiverOptions {
  /** The access token callers must present. */
  accessToken: string;
  /** Pixel ids accepted; any numeric id when omitted. */
  pixelIds?: string[];
  clock?: Clock;
  /** Most requests kept in memory (oldest dropped), default 1000. */
  maxRecorded?: number;
}

export interface RecordedCapiRequest {
  apiVersion: string;
  pixelId: string;
  testEventCode: string | undefined;
  events: Record<string, unknown>[];
  receivedAt: Date;
  fbtraceId: string;
}

export interface GraphErrorBody {
  error: {
    message: string;
    type: 'OAuthException';
    code: number;
    error_subcode?: number;
    fbtrace_id: string;
    is_transient?: boolean;
  };
}

export interface CapiHandleInput {
  method: string;
  /** Path below the mount point, e.g. `/v21.0/123/events`. */
  path: string;
  query: Record<string, string | undefined>;
  /** Decoded JSON body (or undefined). */
  body: unknown;
}

export interface CapiHandleResult {
  status: number;
  body: unknown;
}

/** A Graph trace id (`fbtrace_id`), as every Graph answer carries. */
export const traceId = (): string => `A${randomBytes(12).toString('base64url')}`;

/** A Graph error answer: HTTP status, Graph error code and subcode. */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly subcode?: number,
  ) {
    super(message);
  }
}

export class LocalCapiReceiver {
  private readonly accessToken: string;
  private readonly pixelIds: Set<string> | undefined;
  private readonly clock: Clock;
  private readonly maxRecorded: number;
  private readonly recorded: RecordedCapiRequest[] = [];
  private readonly failures: CapiHandleResult[] = [];

  constructor(opts: LocalCapiReceiverOptions) {
    if (!opts.accessToken) throw new Error('local CAPI receiver: accessToken is required');
    this.accessToken = opts.accessToken;
    this.pixelIds = opts.pixelIds ? new Set(opts.pixelIds) : undefined;
    this.clock = opts.clock ?? systemClock;
    this.maxRecorded = Math.max(1, opts.maxRecorded ?? 1000);
  }

  /** Accepted requests, oldest first. */
  get requests(): readonly RecordedCapiRequest[] {
    return this.recorded;
  }

  /** All accepted events (wire shape), oldest first. */
  get events(): Record<string, unknown>[] {
    return this.recorded.flatMap((r) => r.events);
  }

  clear(): void {
    this.recorded.length = 0;
    this.failures.length = 0;
  }

  /**
   * Makes the next matching request(s) fail with this answer (default HTTP 500 with a transient
   * Graph error), to test retries. Queued answers are used one per request.
   */
  failNext(times = 1, answer?: Partial<CapiHandleResult>): void {
    for (let i = 0; i < times; i++) {
      this.failures.push({
        status: answer?.status ?? 500,
        body: answer?.body ?? {
          error: {
            message: 'An unexpected error has occurred. Please retry your request later.',
            type: 'OAuthException',
            code: 2,
            is_transient: true,
            fbtrace_id: traceId(),
          },
        },
      });
    }
  }

  handle(input: CapiHandleInput): CapiHandleResult {
    const fbtraceId = traceId();
    try {
      return this.process(input, fbtraceId);
    } catch (e) {
      if (e instanceof GraphError) {
        const body: GraphErrorBody = {
          error: {
            message: e.message,
            type: 'OAuthException',
            code: e.code,
            ...(e.subcode === undefined ? {} : { error_subcode: e.subcode }),
            fbtrace_id: fbtraceId,
          },
        };
        return { status: e.status, body };
      }
      throw e;
    }
  }

  private process(input: CapiHandleInput, fbtraceId: string): CapiHandleResult {
    const m = /^\/(v\d+\.\d+)\/([^/]+)\/events\/?$/.exec(input.path);
    if (!m || input.method.toUpperCase() !== 'POST') {
      throw new GraphError(400, 100, `Unsupported ${input.method.toLowerCase()} request.`);
    }
    const apiVersion = m[1] as string;
    const pixelId = decodeURIComponent(m[2] as string);
    const body =
      input.body !== null && typeof input.body === 'object' && !Array.isArray(input.body)
        ? (input.body as Record<string, unknown>)
        : {};

    const token =
      input.query['access_token'] ?? (typeof body['access_token'] === 'string' ? body['access_token'] : undefined);
    if (!token) throw new GraphError(400, 190, 'An access token is required to request this resource.');
    if (token !== this.accessToken)
      throw new GraphError(400, 190, 'Invalid OAuth access token - Cannot parse access token');

    if (!/^\d+$/.test(pixelId) || (this.pixelIds && !this.pixelIds.has(pixelId))) {
      throw new GraphError(
        400,
        100,
        `Unsupported post request. Object with ID '${pixelId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        33,
      );
    }

    const failure = this.failures.shift();
    if (failure) return failure;

    let data = body['data'];
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        throw new GraphError(400, 100, 'Invalid parameter: data must be a JSON array');
      }
    }
    if (!Array.isArray(data) || data.length === 0) throw new GraphError(400, 100, 'The parameter data is required');
    if (data.length > MAX_EVENTS)
      throw new GraphError(400, 100, `Invalid parameter: at most ${MAX_EVENTS} events per request`);

    const nowS = Math.floor(this.clock.now().getTime() / 1000);
    data.forEach((ev, i) => this.validateEvent(ev, i, nowS));

    const testEventCode = typeof body['test_event_code'] === 'string' ? body['test_event_code'] : undefined;
    this.recorded.push({
      apiVersion,
      pixelId,
      testEventCode,
      events: data as Record<string, unknown>[],
      receivedAt: this.clock.now(),
      fbtraceId,
    });
    while (this.recorded.length > this.maxRecorded) this.recorded.shift();
    return { status: 200, body: { events_received: data.length, messages: [], fbtrace_id: fbtraceId } };
  }

  private validateEvent(ev: unknown, i: number, nowS: number): void {
    const bad = (msg: string): never => {
      throw new GraphError(400, 100, `Invalid parameter: data[${i}]: ${msg}`);
    };
    if (ev === null || typeof ev !== 'object' || Array.isArray(ev)) bad('event must be an object');
    const e = ev as Record<string, unknown>;
    if (typeof e['event_name'] !== 'string' || e['event_name'] === '') bad('event_name is required');
    const t = e['event_time'];
    if (typeof t !== 'number' || !Number.isInteger(t)) bad('event_time must be an integer Unix timestamp in seconds');
    if ((t as number) < nowS - MAX_AGE_S) bad('event_time is too far in the past (more than 7 days ago)');
    if ((t as number) > nowS + MAX_FUTURE_S) bad('event_time is in the future');
    const source = e['action_source'];
    if (typeof source !== 'string' || !ACTION_SOURCES.has(source))
      bad('action_source is required and must be a valid value');
    if (e['event_id'] !== undefined && typeof e['event_id'] !== 'string') bad('event_id must be a string');

    const ud = e['user_data'];
    if (ud === null || typeof ud !== 'object' || Array.isArray(ud) || Object.keys(ud).length === 0) {
      bad('user_data must contain at least one customer information parameter');
    }
    const u = ud as Record<string, unknown>;
    if (source === 'website') {
      const url = e['event_source_url'];
      let ok = false;
      if (typeof url === 'string') {
        try {
          const p = new URL(url).protocol;
          ok = p === 'http:' || p === 'https:';
        } catch {
          ok = false;
        }
      }
      if (!ok) bad('event_source_url is required for website events and must be an http(s) URL');
      if (typeof u['client_user_agent'] !== 'string' || u['client_user_agent'] === '') {
        bad('client_user_agent is required for website events');
      }
    }
    for (const key of ['em', 'ph', 'fn', 'ln']) {
      const v = u[key];
      if (v === undefined) continue;
      const list = Array.isArray(v) ? v : [v];
      if (list.length === 0 || !list.every((x) => typeof x === 'string' && HEX64.test(x))) {
        bad(`user_data.${key} must be SHA-256 hashed (64 lowercase hex characters)`);
      }
    }
    const ip = u['client_ip_address'];
    if (ip !== undefined && (typeof ip !== 'string' || isIP(ip) === 0))
      bad('user_data.client_ip_address must be a plain (unhashed) IP address');
    for (const key of ['client_user_agent', 'fbc', 'fbp']) {
      const v = u[key];
      if (v !== undefined && typeof v !== 'string') bad(`user_data.${key} must be a string`);
    }
  }
}

export function createLocalCapiReceiver(opts: LocalCapiReceiverOptions): LocalCapiReceiver {
  return new LocalCapiReceiver(opts);
}
