/** The single place that maps error codes to HTTP statuses and problem titles. */
import type { ErrorCode } from '@platform/kernel';

export const ERROR_STATUS: Record<ErrorCode, { status: number; title: string }> = {
  BAD_REQUEST: { status: 400, title: 'Bad request' },
  MALFORMED_JSON: { status: 400, title: 'Malformed JSON body' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload too large' },
  VALIDATION_FAILED: { status: 422, title: 'Validation failed' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  UNSUPPORTED_CHARSET: { status: 415, title: 'Unsupported charset' },
  BODY_ENCODING_INVALID: { status: 400, title: 'Body not valid in its charset' },
  REQUEST_TIMEOUT: { status: 408, title: 'Request timeout' },
  HEADERS_TOO_LARGE: { status: 431, title: 'Request headers too large' },
  IDEMPOTENCY_KEY_INVALID: { status: 400, title: 'Invalid Idempotency-Key' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'Idempotency-Key reused with a different request' },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: { status: 409, title: 'A request with this Idempotency-Key is in progress' },
  RATE_LIMITED: { status: 429, title: 'Too many requests' },
  CAPTCHA_MISSING: { status: 400, title: 'Bot-check token missing' },
  CAPTCHA_REJECTED: { status: 403, title: 'Bot check failed' },
  CAPTCHA_UNAVAILABLE: { status: 503, title: 'Bot-check verifier unavailable' },
  API_UNAUTHENTICATED: { status: 401, title: 'Authentication required' },
  API_FORBIDDEN: { status: 403, title: 'Outside the credential\'s scope' },
  MODEL_NOT_FOUND: { status: 404, title: 'Unknown model' },
  RECORD_NOT_FOUND: { status: 404, title: 'Record not found' },
  METHOD_NOT_FOUND: { status: 404, title: 'Unknown method' },
  ERP_VALIDATION: { status: 422, title: 'The ERP refused the request' },
  FEATURE_GONE: { status: 410, title: 'Gone' },
  TENANT_NOT_FOUND: { status: 404, title: 'Unknown site' },
  DATABASE_UNAVAILABLE: { status: 503, title: 'Database unavailable' },
  ERP_UNAVAILABLE: { status: 503, title: 'ERP unavailable' },
  ERP_REJECTED: { status: 502, title: 'ERP rejected the request' },
  ERP_AUTH_FAILED: { status: 502, title: 'ERP refused the platform credentials' },
  CONFIG_INVALID: { status: 500, title: 'Invalid configuration' },
  INTERNAL: { status: 500, title: 'Internal error' },
};

export const problemType = (code: ErrorCode): string => `urn:platform:problem:${code.toLowerCase().replace(/_/g, '-')}`;
