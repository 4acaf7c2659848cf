/**
 * Server-side conversions capability: our own event type, independent of any ad platform.
 * Adapters (Meta Conversions API, the log driver) translate it to their wire format.
 *
 * Privacy: callers must not send events for a visitor who signalled Global Privacy Control
 * (`Sec-GPC: 1`) or otherwise opted out of sale/sharing: the decision is made before `send`.
 * User data here is raw (unhashed); adapters hash what their platform requires.
 */

export interface ConversionUser {
  email?: string;
  phone?: string;
  firstName?: string;
  lastName?: string;
  clientIpAddress?: string;
  clientUserAgent?: string;
  /** Meta click-id cookie `_fbc`, sent as is. */
  fbc?: string;
  /** Meta browser-id cookie `_fbp`, sent as is. */
  fbp?: string;
}

export interface ConversionEvent {
  eventName: 'Lead';
  /** Shared with the browser pixel for de-duplication (generated once, in the browser). */
  eventId: string;
  /** Unix seconds (not milliseconds). */
  eventTime: number;
  eventSourceUrl: string;
  actionSource: 'website';
  user: ConversionUser;
  customData?: Record<string, unknown>;
}

export interface ConversionsSendResult {
  eventsReceived: number;
}

export interface ConversionsSender {
  send(events: ConversionEvent[]): Promise<ConversionsSendResult>;
}
