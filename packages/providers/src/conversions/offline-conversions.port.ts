/**
 * Offline (click) conversions: a sale made after the visit, sent back to an ad platform with the click
 * id the visitor arrived with. A sibling of the conversions port because its shape differs: no browser
 * user data, a click id, a value and an order id instead.
 */
import { ProviderError } from '../http/provider-error.js';

export interface OfflineClickConversion {
  /** Exactly one click id: gclid (web), gbraid (app→web), wbraid (web→app). */
  click: { gclid: string } | { gbraid: string } | { wbraid: string };
  /** When the sale happened (the platform takes its own date-time format; adapters convert). */
  occurredAt: Date;
  /** Integer minor units, in `currency`. */
  valueMinor: number;
  /** ISO 4217 code, e.g. 'USD'. */
  currency: string;
  /** Our stable event id: the platform de-duplicates uploads of one order on it. */
  orderId: string;
}

export interface OfflineConversionRejection {
  orderId: string;
  /** The platform's error code (e.g. `UNPARSEABLE_GCLID`) and message. */
  code: string;
  message: string;
}

export interface OfflineConversionsResult {
  /** Order ids the platform accepted. */
  accepted: string[];
  /** Conversions refused one by one (partial failure): retrying them sends the same thing again. */
  rejected: OfflineConversionRejection[];
}

export interface OfflineConversionsSender {
  upload(conversions: OfflineClickConversion[]): Promise<OfflineConversionsResult>;
}

export type OfflineConversionsErrorKind =
  'invalid_conversion' | 'unauthorized' | 'rejected' | 'rate_limited' | 'http' | 'network' | 'timeout' | 'format';

/** A whole upload failed (auth, quota, bad request): `retryable` says whether trying later may help. */
export class OfflineConversionsError extends ProviderError<OfflineConversionsErrorKind> {
  constructor(kind: OfflineConversionsErrorKind, message: string, opts: { retryable: boolean; status?: number }) {
    super(kind, message, opts);
    this.name = 'OfflineConversionsError';
  }
}
