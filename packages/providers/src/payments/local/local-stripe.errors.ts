/**
 * Stripe's error answer (docs.stripe.com/api/errors): `{ error: { type, code?, message, param?,
 * decline_code? } }` with 400 (invalid request, idempotency), 401 (key), 402 (card), 403 (account
 * access), 404 (`resource_missing`). Thrown inside the stand-in and written by its error handler.
 */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'idempotency_error' | 'card_error' | 'api_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }

  get body(): { error: Record<string, string> } {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code && { code: this.code }),
        ...(this.param && { param: this.param }),
      },
    };
  }
}

export const missing = (what: string, id: string, param = 'id'): StripeApiError =>
  new StripeApiError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', param);

export const invalid = (param: string, message: string, code = 'parameter_invalid'): StripeApiError =>
  new StripeApiError(400, 'invalid_request_error', message, code, param);

export const required = (param: string): StripeApiError =>
  new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}.`, 'parameter_missing', param);
