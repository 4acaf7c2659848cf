/**
 * Meta Conversions API adapter: `POST {graphUrl}/{apiVersion}/{pixelId}/events?access_token=…`
 * with `{ data: [...], test_event_code? }` in Meta's wire shape.
 *
 * - Events are checked before sending: one event older than 7 days fails a whole Graph request,
 *   so such events are refused locally (StaleConversionEventError, not retryable). Website
 *   events must carry an http(s) `eventSourceUrl` and a `clientUserAgent`; a `system_generated`
 *   one (a CRM's won order) needs neither.
 * - More than 1000 events are sent in batches of 1000.
 * - Errors are `ConversionsSendError` (a `ProviderError`, from the port) with `retryable` (network, timeout, HTTP 429/5xx, Graph
 *   transient/throttling codes) and a message that never contains the access token.
 */
import { type Clock, systemClock } from '@platform/kernel';

import { providerFetch } from '../../http/provider-http.js';
import {
  type ConversionEvent,
  type ConversionsSender,
  ConversionsSendError,
  type ConversionsSendResult,
  StaleConversionEventError,
} from '../conversions.port.js';
import { type MetaUserData, toMetaUserData } from './meta-hashing.js';

/** Kept here too for code that imported them from the adapter. */
export { ConversionsSendError, StaleConversionEventError, type ConversionsErrorKind } from '../conversions.port.js';

export const META_GRAPH_URL = 'https://graph.facebook.com';
export const META_API_VERSION = 'v21.0';
export const META_MAX_EVENTS_PER_REQUEST = 1000;
export const META_MAX_EVENT_AGE_SECONDS = 7 * 24 * 60 * 60;
export const DEFAULT_CAPI_TIMEOUT_MS = 10_000;

export interface MetaCapiSenderOptions {
  graphUrl?: string;
  apiVersion?: string;
  pixelId: string;
  accessToken: string;
  /** From Events Manager → Test Events; leave unset in production. */
  testEventCode?: string;
  timeoutMs?: number;
  /** Calling code for phone numbers written without one, e.g. '1'. */
  defaultCountryCode?: string;
  clock?: Clock;
}

/** One event in Meta's wire shape. */
export interface MetaServerEvent {
  event_name: string;
  event_time: number;
  event_id: string;
  action_source: ConversionEvent['actionSource'];
  event_source_url?: string;
  user_data: MetaUserData;
  custom_data?: Record<string, unknown>;
}

export interface MetaEventsRequestBody {
  data: MetaServerEvent[];
  test_event_code?: string;
}

/** Graph codes that mean "try again later": unknown/transient, throttling. */
const TRANSIENT_GRAPH_CODES = new Set([1, 2, 4, 17, 32, 341, 613]);

export function toMetaServerEvent(e: ConversionEvent, opts: { defaultCountryCode?: string } = {}): MetaServerEvent {
  const out: MetaServerEvent = {
    event_name: e.eventName,
    event_time: e.eventTime,
    event_id: e.eventId,
    action_source: e.actionSource,
    ...(e.eventSourceUrl === undefined ? {} : { event_source_url: e.eventSourceUrl }),
    user_data: toMetaUserData(
      e.user,
      opts.defaultCountryCode === undefined ? {} : { defaultCountryCode: opts.defaultCountryCode },
    ),
  };
  if (e.customData && Object.keys(e.customData).length > 0) out.custom_data = e.customData;
  return out;
}

function isHttpUrl(s: unknown): boolean {
  if (typeof s !== 'string') return false;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export function createMetaCapiSender(opts: MetaCapiSenderOptions): ConversionsSender {
  const graphUrl = (opts.graphUrl ?? META_GRAPH_URL).replace(/\/+$/, '');
  const apiVersion = opts.apiVersion ?? META_API_VERSION;
  const { pixelId, accessToken, testEventCode } = opts;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CAPI_TIMEOUT_MS;
  const clock = opts.clock ?? systemClock;
  if (!pixelId || !/^\d+$/.test(pixelId)) throw new Error('Meta CAPI sender: pixelId must be numeric');
  if (!accessToken) throw new Error('Meta CAPI sender: accessToken is required');

  const secrets = [accessToken, encodeURIComponent(accessToken)];
  const redact = (s: string): string => secrets.reduce((acc, t) => (t ? acc.split(t).join('[redacted]') : acc), s);
  const endpoint = `${graphUrl}/${encodeURIComponent(apiVersion)}/${encodeURIComponent(pixelId)}/events`;

  function check(events: ConversionEvent[]): void {
    const nowS = Math.floor(clock.now().getTime() / 1000);
    const stale = events.filter((e) => e.eventTime < nowS - META_MAX_EVENT_AGE_SECONDS).map((e) => e.eventId);
    if (stale.length > 0) {
      throw new StaleConversionEventError(
        `Meta CAPI: ${stale.length} event(s) older than 7 days refused: ${stale.join(', ')}`,
        stale,
      );
    }
    for (const e of events) {
      const problem =
        typeof e.eventId !== 'string' || e.eventId === ''
          ? 'eventId is required'
          : !Number.isInteger(e.eventTime) || e.eventTime <= 0
            ? 'eventTime must be integer Unix seconds'
            : e.eventTime > nowS + 24 * 60 * 60
              ? 'eventTime is in the future (milliseconds instead of seconds?)'
              : e.actionSource !== 'website' && e.actionSource !== 'system_generated'
                ? 'actionSource must be website or system_generated'
                : e.actionSource === 'website' && !isHttpUrl(e.eventSourceUrl)
                  ? 'eventSourceUrl must be an http(s) URL'
                  : e.actionSource === 'website' && !e.user?.clientUserAgent
                    ? 'website events require user.clientUserAgent'
                    : null;
      if (problem) {
        throw new ConversionsSendError('invalid_event', `Meta CAPI: event ${String(e.eventId)} refused: ${problem}`, {
          retryable: false,
          eventIds: [String(e.eventId)],
        });
      }
    }
  }

  async function post(batch: ConversionEvent[]): Promise<number> {
    const eventIds = batch.map((e) => e.eventId);
    const body: MetaEventsRequestBody = {
      data: batch.map((e) =>
        toMetaServerEvent(
          e,
          opts.defaultCountryCode === undefined ? {} : { defaultCountryCode: opts.defaultCountryCode },
        ),
      ),
    };
    if (testEventCode) body.test_event_code = testEventCode;
    const url = `${endpoint}?access_token=${encodeURIComponent(accessToken)}`;

    const res = await providerFetch(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      },
      {
        label: 'Meta CAPI',
        timeoutMs,
        causeInMessage: true,
        error: (kind, message, status) =>
          new ConversionsSendError(kind, redact(message), {
            retryable: true,
            eventIds,
            ...(status === undefined ? {} : { status }),
          }),
      },
    );
    const json = res.json;

    if (!res.ok) {
      const err =
        json && typeof json === 'object' && 'error' in json && json.error && typeof json.error === 'object'
          ? (json.error as {
              message?: unknown;
              type?: unknown;
              code?: unknown;
              error_subcode?: unknown;
              fbtrace_id?: unknown;
              is_transient?: unknown;
            })
          : undefined;
      const graphCode = typeof err?.code === 'number' ? err.code : undefined;
      const graphSubcode = typeof err?.error_subcode === 'number' ? err.error_subcode : undefined;
      const fbtraceId = typeof err?.fbtrace_id === 'string' ? err.fbtrace_id : undefined;
      const retryable =
        res.status >= 500 ||
        res.status === 429 ||
        err?.is_transient === true ||
        (graphCode !== undefined && TRANSIENT_GRAPH_CODES.has(graphCode));
      const detail = err
        ? `${typeof err.type === 'string' ? err.type : 'GraphError'} ${graphCode ?? ''}${graphSubcode ? `/${graphSubcode}` : ''}: ${typeof err.message === 'string' ? err.message : 'no message'}`
        : 'no Graph error body';
      throw new ConversionsSendError(err ? 'rejected' : 'http', redact(`Meta CAPI: HTTP ${res.status}, ${detail}`), {
        retryable,
        status: res.status,
        ...(graphCode === undefined ? {} : { graphCode }),
        ...(graphSubcode === undefined ? {} : { graphSubcode }),
        ...(fbtraceId === undefined ? {} : { fbtraceId }),
        eventIds,
      });
    }
    const received =
      json && typeof json === 'object' && 'events_received' in json && typeof json.events_received === 'number'
        ? json.events_received
        : undefined;
    if (received === undefined) {
      throw new ConversionsSendError('format', `Meta CAPI: HTTP ${res.status} without events_received`, {
        retryable: true,
        status: res.status,
        eventIds,
      });
    }
    return received;
  }

  return {
    async send(events: ConversionEvent[]): Promise<ConversionsSendResult> {
      if (events.length === 0) return { eventsReceived: 0 };
      check(events);
      let eventsReceived = 0;
      for (let i = 0; i < events.length; i += META_MAX_EVENTS_PER_REQUEST) {
        eventsReceived += await post(events.slice(i, i + META_MAX_EVENTS_PER_REQUEST));
      }
      return { eventsReceived };
    },
  };
}
