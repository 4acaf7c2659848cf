/**
 * The one error type of the platform. It carries a stable code (see error-codes.ts) and never an
 * HTTP status: transports map codes to statuses in one place (http-kit's error-status.map.ts).
 */
import type { ErrorCode } from './error-codes.js';

export interface FieldIssue {
  /** Dotted path of the offending field, e.g. `email` or `products.2`. */
  field: string;
  /** Short machine-readable rule name, e.g. `required`, `format`, `max_length`. */
  rule: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly fieldIssues: FieldIssue[] | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { cause?: unknown; details?: Record<string, unknown>; fieldIssues?: FieldIssue[] } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = opts.details;
    this.fieldIssues = opts.fieldIssues;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
