/**
 * Catalogue of every stable error code. Each code must have a status in http-kit's map and a
 * section in docs/errors.md; error-codes.test.ts fails when one is missing.
 */
export const ERROR_CODES = [
  // request shape
  'BAD_REQUEST',
  'MALFORMED_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'UNSUPPORTED_CHARSET',
  'BODY_ENCODING_INVALID',
  'REQUEST_TIMEOUT',
  'HEADERS_TOO_LARGE',
  // idempotency
  'IDEMPOTENCY_KEY_INVALID',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_REQUEST_IN_PROGRESS',
  // abuse protection
  'RATE_LIMITED',
  'CAPTCHA_MISSING',
  'CAPTCHA_REJECTED',
  'CAPTCHA_UNAVAILABLE',
  // REST API on the ERP host
  'API_UNAUTHENTICATED',
  'API_FORBIDDEN',
  'MODEL_NOT_FOUND',
  'RECORD_NOT_FOUND',
  'METHOD_NOT_FOUND',
  'ERP_VALIDATION',
  // features
  'FEATURE_GONE',
  'TENANT_NOT_FOUND',
  // dependencies
  'DATABASE_UNAVAILABLE',
  'ERP_UNAVAILABLE',
  'ERP_REJECTED',
  'ERP_AUTH_FAILED',
  // configuration
  'CONFIG_INVALID',
  // email (docs/email.md)
  'EMAIL_TEMPLATE_UNKNOWN',
  'EMAIL_DOMAIN_LIMIT_REACHED',
  'EMAIL_DOMAIN_TAKEN',
  'EMAIL_SUPPRESSION_NOT_LIFTABLE',
  'EMAIL_WEBHOOK_UNAUTHENTICATED',
  // control plane (docs/control-plane.md)
  'AUTH_REQUIRED',
  'TOKEN_INVALID',
  'TOKEN_REUSED',
  'LOGIN_FAILED',
  'LOGIN_THROTTLED',
  'TENANT_REQUIRED',
  'ROLE_FORBIDDEN',
  'OPERATOR_REQUIRED',
  'TENANT_SUSPENDED',
  'PLAN_LIMIT_REACHED',
  'PLAN_FEATURE_MISSING',
  'PLAN_DOWNGRADE_BLOCKED',
  'BRANCH_IS_DEFAULT',
  'DOMAIN_TAKEN',
  'DOMAIN_INVALID',
  'JOB_CONFLICT',
  'PORTAL_LINK_INVALID',
  'INVITATION_INVALID',
  'RESET_TOKEN_INVALID',
  // sign-up and email verification (docs/control-plane.md, "Sign-up")
  'EMAIL_TAKEN',
  'EMAIL_NOT_VERIFIED',
  'VERIFICATION_TOKEN_INVALID',
  // jobs (control plane /jobs)
  'JOB_TRANSITION_INVALID',
  'UPLOAD_URL_INVALID',
  'JOB_SERIES_EXISTS',
  'JOB_SERIES_ENDED',
  'JOB_NOT_MEASURE',
  'MEASURE_QUOTE_SENT',
  // tenants: provisioning, suspending, deleting (docs/control-plane.md, "Tenants")
  'TENANT_SLUG_TAKEN',
  'TENANT_STATE_CONFLICT',
  // everything else
  'INTERNAL',
  // metrics (ops: /metrics of every service, docs/deployment.md "Monitoring")
  'METRICS_TOKEN_REQUIRED',
  'METRICS_LOCAL_ONLY',
  // crm-sales (docs/control-plane.md, "Quotes and price grids", "Customer portal links")
  'PORTAL_DISABLED',
  'QUOTE_STATE_CONFLICT',
  // frontend (apps/frontend): the control plane behind /api/control did not answer
  'CONTROL_UNAVAILABLE',
  // accounts (docs/control-plane.md, "Accounts")
  'LAST_OWNER',
  // outbound webhooks (docs/control-plane.md, "Outbound webhooks")
  'WEBHOOK_ENDPOINT_DISABLED',
  // the owner's console: integrations (docs/integrations.md, "The Integrations screen")
  'INTEGRATION_NOT_CONFIGURED',
  'ACCOUNTING_PROVIDER_FAILED',
  // the owner's console: payments (docs/payments.md, "Connecting a tenant's account", "The webhook receiver")
  'PAYMENTS_NOT_CONFIGURED',
  'PAYMENTS_PROVIDER_FAILED',
  'PAYMENT_WEBHOOK_INVALID',
  // the deposit on acceptance (docs/payments.md)
  'DEPOSIT_NOT_DUE',
  // the final invoice and its balance (docs/payments.md, "Final invoice")
  'INVOICE_NOT_DUE',
  'INVOICE_NOT_PAYABLE',
  // supplier orders (docs/control-plane.md, "Supplier orders")
  'PURCHASE_ORDER_STATE_CONFLICT',
  'RECEIVE_QTY_INVALID',
  // stock (docs/inventory.md)
  'STOCK_INSUFFICIENT',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
