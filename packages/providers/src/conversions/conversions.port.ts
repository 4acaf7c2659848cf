/**
 * Server-side conversions capability: our own event type, independent of any ad platform.
 * Adapters (Meta Conversions API, the log driver) translate it to their wire format.
 *
 * Privacy: callers must not send events for a visitor who signalled Global Privacy Control
 * (`Sec-GPC: 1`) or otherwise opted out of sale/sharing: the decision is made before `send`.
 * User data here is raw (unhashed); adapters hash what their platform requires.
 */
import type { ConversionUser } from '@platform/contracts';

import { ProviderError } from '../http/provider-error.js';

/** The outbox's conversion payload carries the same user (declared once, in the contracts). */
export type { ConversionUser };

export interface ConversionEvent {
  /** A form's lead (from the site), or a won order's purchase (from the CRM, after the visit). */
  eventName: 'Lead' | 'Purchase';
  /**
   * De-duplication key: a lead's is shared with the browser pixel (generated once, in the browser);
   * a purchase's is derived from its order, so a redelivery is counted once.
   */
  eventId: string;
  /** Unix seconds (not milliseconds). */
  eventTime: number;
  /** Required for website events; a CRM event happened on no page. */
  eventSourceUrl?: string;
  /** `website` for a form on the site; `system_generated` for an event the CRM records (a won order). */
  actionSource: 'website' | 'system_generated';
  user: ConversionUser;
  customData?: Record<string, unknown>;
}

export interface ConversionsSendResult {
  eventsReceived: number;
}

export interface ConversionsSender {
  send(events: ConversionEvent[]): Promise<ConversionsSendResult>;
}

export type ConversionsErrorKind =
  'stale_event' | 'invalid_event' | 'rejected' | 'http' | 'network' | 'timeout' | 'format';

/**
 * A `ProviderError` of the conversions port. `retryable` is decided by the adapter (ad platforms
 * flag transient errors in their bodies); adds the ad platform's error codes and the event ids
 * concerned (no personal data).
 */
export class ConversionsSendError extends ProviderError<ConversionsErrorKind> {
  readonly graphCode: number | undefined;
  readonly graphSubcode: number | undefined;
  readonly fbtraceId: string | undefined;
  readonly eventIds: string[];

  constructor(
    kind: ConversionsErrorKind,
    message: string,
    opts: {
      retryable: boolean;
      status?: number;
      graphCode?: number;
      graphSubcode?: number;
      fbtraceId?: string;
      eventIds?: string[];
    },
  ) {
    super(kind, message, { retryable: opts.retryable, ...(opts.status === undefined ? {} : { status: opts.status }) });
    this.name = 'ConversionsSendError';
    this.graphCode = opts.graphCode;
    this.graphSubcode = opts.graphSubcode;
    this.fbtraceId = opts.fbtraceId;
    this.eventIds = opts.eventIds ?? [];
  }
}

/** An event too old for the platform (one such event fails a whole request): never retried. */
export class StaleConversionEventError extends ConversionsSendError {
  constructor(message: string, eventIds: string[]) {
    super('stale_event', message, { retryable: false, eventIds });
    this.name = 'StaleConversionEventError';
  }
}
