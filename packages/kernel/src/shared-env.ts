/**
 * Environment variables that more than one process reads (the ERP host and the worker, and in one
 * process the platform): declared once, spread into each config schema. Reading `process.env`
 * still happens only in each app's config module.
 */
import { z } from 'zod';

const httpUrl = (error: string) => z.url({ protocol: /^https?$/, error });

/** Where the platform database is: PostgreSQL by URL, else the embedded engine's files under DATA_DIR. */
export const databaseEnvShape = {
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
};

/** The id of the key new seals use, one of the keys of the keyring variable named `keyring`. */
export const activeKeyIdEnv = (keyring: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, `must be the id of a key in ${keyring}`)
    .optional();

export const sharedEnvShape = {
  ...databaseEnvShape,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // The ERP service account (Odoo 15 or the embedded ERP).
  ERP_LOGIN: z.string().min(1).default('admin'),
  ERP_API_KEY: z.string().min(8, "must be the ERP user's API key (Odoo: 40 hex characters)").optional(),
  // Sealed credentials at rest (packages/secrets).
  SECRETS_KEYRING: z.string().optional(),
  SECRETS_ACTIVE_KEY: activeKeyIdEnv('SECRETS_KEYRING'),
  /**
   * Outbound webhooks (docs/control-plane.md, "Outbound webhooks"): `on` also admits receivers on
   * loopback addresses (http or https), for embedded and development setups; `npm start` turns it on.
   * The control plane checks it when an endpoint is saved, the worker at every delivery.
   */
  WEBHOOK_ALLOW_LOOPBACK: z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
  // Integrations (docs/integrations.md).
  SMS_DEFAULT_REGION: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166 country code such as US')
    .default('US'),
  /** The SMS provider's API, where a message is sent and read back by id (the local stand-in in embedded mode). */
  SMS_API_URL: httpUrl('must be the http(s) base URL of the SMS provider API').default('https://api.justcall.io'),
  /** Origins a team-chat webhook URL may point at (comma-separated); others are refused when saved. */
  CHAT_ALLOWED_ORIGINS: z.string().default('https://chat.googleapis.com'),
  // Accounting provider (Xero protocol); the local stand-in serves all three from one origin.
  ACCT_LOGIN_URL: httpUrl("must be the http(s) base URL of the provider's login (authorize) host").default(
    'https://login.xero.com',
  ),
  ACCT_IDENTITY_URL: httpUrl("must be the http(s) base URL of the provider's token host").default(
    'https://identity.xero.com',
  ),
  ACCT_API_URL: httpUrl("must be the http(s) base URL of the provider's API").default('https://api.xero.com'),
};
