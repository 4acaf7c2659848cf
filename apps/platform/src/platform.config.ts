/** `npm start`'s own settings (each service validates its own on top). */
import { type EnvSource, readConfig } from '@platform/kernel';
import { z } from 'zod';

export const platformEnvSchema = z.object({
  // Embedded mode only: local stand-ins for the SMS, accounting, team-chat, email and payments providers.
  LOCAL_PROVIDERS: z.enum(['on', 'off'], 'must be on or off').default('on'),
  LOCAL_PROVIDERS_PORT: z.coerce.number().int('must be an integer').min(0).max(65535, 'must be a TCP port').default(0),
  ERP_URL: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  SMS_API_URL: z.string().optional(),
  ACCT_API_URL: z.string().optional(),
  CHAT_ALLOWED_ORIGINS: z.string().default('https://chat.googleapis.com'),
  EMAIL_SMTP_URL: z.string().optional(),
  POSTMARK_SERVER_TOKEN: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_API_BASE: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  ERP_PORT: z.coerce.number().int().min(0).max(65535).default(8069),
});

export type PlatformConfig = z.infer<typeof platformEnvSchema>;
export const loadPlatformConfig = (env: EnvSource = process.env): PlatformConfig => readConfig(platformEnvSchema, env);

/** The stand-ins run only on embedded defaults and only for providers the operator did not point elsewhere. */
export function wantsLocalProviders(c: PlatformConfig): {
  sms: boolean;
  accounting: boolean;
  chat: boolean;
  mail: boolean;
  payments: boolean;
} {
  const embedded = c.LOCAL_PROVIDERS === 'on' && !c.ERP_URL && !c.DATABASE_URL;
  return {
    sms: embedded && !c.SMS_API_URL,
    accounting: embedded && !c.ACCT_API_URL,
    chat: embedded,
    mail: embedded && !c.EMAIL_SMTP_URL && !c.POSTMARK_SERVER_TOKEN,
    payments: embedded && !c.STRIPE_SECRET_KEY && !c.STRIPE_API_BASE,
  };
}
