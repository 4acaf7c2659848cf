/**
 * Reading Google Ads API errors (REST): a whole-request error is `{ error: { code, message, status,
 * details: [GoogleAdsFailure] } }`; a partial failure is `partialFailureError: { code, message,
 * details: [GoogleAdsFailure] }` in a 200 answer, each error located by
 * `location.fieldPathElements[0] = { fieldName: 'conversions', index }`.
 */
import { OfflineConversionsError } from '../offline-conversions.port.js';

interface GoogleAdsError {
  errorCode?: Record<string, unknown>;
  message?: unknown;
  location?: { fieldPathElements?: { fieldName?: unknown; index?: unknown }[] };
}

function failureErrors(status: unknown): GoogleAdsError[] {
  if (!status || typeof status !== 'object') return [];
  const details = (status as { details?: unknown }).details;
  if (!Array.isArray(details)) return [];
  return details.flatMap((d) =>
    d && typeof d === 'object' && Array.isArray((d as { errors?: unknown }).errors)
      ? ((d as { errors: GoogleAdsError[] }).errors ?? [])
      : [],
  );
}

/** `{ conversionUploadError: 'UNPARSEABLE_GCLID' }` → `UNPARSEABLE_GCLID`. */
const codeOf = (e: GoogleAdsError): string => {
  const v = e.errorCode ? Object.values(e.errorCode)[0] : undefined;
  return typeof v === 'string' ? v : 'UNKNOWN';
};

/** Rows refused in partial-failure mode, by their index in the request's `conversions`. */
export function googleAdsFailureRows(json: object): Map<number, { code: string; message: string }> {
  const rows = new Map<number, { code: string; message: string }>();
  for (const e of failureErrors((json as { partialFailureError?: unknown }).partialFailureError)) {
    const at = e.location?.fieldPathElements?.find((p) => p.fieldName === 'conversions');
    if (typeof at?.index !== 'number' || rows.has(at.index)) continue;
    rows.set(at.index, { code: codeOf(e), message: typeof e.message === 'string' ? e.message : '' });
  }
  return rows;
}

const RETRYABLE_STATUS = new Set(['RESOURCE_EXHAUSTED', 'UNAVAILABLE', 'INTERNAL', 'DEADLINE_EXCEEDED']);

export function googleAdsRequestError(
  httpStatus: number,
  json: unknown,
  redact: (s: string) => string,
): OfflineConversionsError {
  const err =
    json && typeof json === 'object' && 'error' in json && json.error && typeof json.error === 'object'
      ? (json.error as { message?: unknown; status?: unknown })
      : undefined;
  const codes = failureErrors(err).map(codeOf);
  const grpc = typeof err?.status === 'string' ? err.status : '';
  const kind =
    httpStatus === 401 || httpStatus === 403
      ? 'unauthorized'
      : httpStatus === 429
        ? 'rate_limited'
        : httpStatus >= 400 && httpStatus < 500
          ? 'rejected'
          : 'http';
  const retryable = httpStatus === 429 || httpStatus >= 500 || RETRYABLE_STATUS.has(grpc);
  const detail = `${grpc || 'no status'}${codes.length ? ` [${codes.join(', ')}]` : ''}: ${typeof err?.message === 'string' ? err.message : 'no message'}`;
  return new OfflineConversionsError(kind, redact(`Google Ads: HTTP ${httpStatus}, ${detail}`), {
    retryable,
    status: httpStatus,
  });
}
