/** Input of the integration settings (spec tables), shared by the CLI and the admin API. */
import { z } from 'zod';

const httpsOrLocal = (what: string) =>
  z
    .url({ protocol: /^https?$/, error: `must be an absolute URL (${what})` })
    .refine((u) => u.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost)(:|\/)/.test(u), {
      message: 'must be https:// (http:// only for 127.0.0.1 or localhost)',
      params: { rule: 'https' },
    });
/** How long the secret being replaced stays accepted (a rotation overlap, as Stripe allows); 0 = none. */
const rotationOverlapHours = z
  .number()
  .int()
  .min(0, 'must be 0 to 168 hours')
  .max(168, 'must be 0 to 168 hours')
  .default(24);
const accountCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9.-]{1,10}$/, 'must be an account code of the accounting provider (1-10 letters, digits, . or -)');

const taxType = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,50}$/, 'must be a tax type code of the accounting provider (e.g. OUTPUT, TAX001)');

export const accountingConnectionSchema = z.object({
  name: z.string().trim().min(1).max(100),
  company_id: z.number().int().positive().default(1),
  client_id: z.string().trim().min(8, 'must be the client id issued by the accounting provider').max(100),
  client_secret: z.string().min(8, 'must be the client secret issued by the accounting provider').max(200),
  redirect_uri: httpsOrLocal('the OAuth callback, https://{erp_domain}/acct/callback'),
  webhook_key: z.string().min(16, 'must be the webhook key from the provider portal').max(200),
  rotation_overlap_hours: rotationOverlapHours,
  down_payment_product_id: z.number().int().positive().optional(),
  payment_journal_id: z.number().int().positive().optional(),
  sales_account_code: accountCode.default('200'),
  deposit_account_code: accountCode.default('835'),
  /** The provider's bank account the ERP's payments and refunds are recorded on (Xero: a BANK account). */
  payment_account_code: accountCode.default('090'),
  /**
   * The provider's tax type of each ERP tax, by ERP tax id ("12": "TAX825"); a line with several
   * taxes is keyed by their sorted ids joined with "," ("3,12"). Lines without tax use no_tax_type.
   */
  tax_types: z
    .record(z.string().regex(/^\d+(,\d+)*$/, 'must be an ERP tax id, or several ids joined with ","'), taxType)
    .default({}),
  no_tax_type: taxType.default('NONE'),
});

export const smsConfigSchema = z.object({
  company_id: z.number().int().positive().default(1),
  api_key: z.string().min(4).max(200),
  api_secret: z.string().min(4).max(200),
  webhook_base_url: httpsOrLocal('https://{erp_domain}'),
  webhook_secret: z.string().min(16, 'must be at least 16 characters').max(200).optional(),
  rotation_overlap_hours: rotationOverlapHours,
});

export const smsLineSchema = z.object({
  name: z.string().trim().min(1).max(100),
  phone_number: z.string().trim().min(4).max(30),
  line_type: z.enum(['sales', 'support', 'operations'], 'must be sales, support or operations'),
  is_default: z.boolean().default(false),
});

/**
 * A team-chat setting, whole or in part: what is left out keeps its stored value, so a flag can be
 * switched without the webhook URL, which is a credential and never shown back. A first setting
 * needs the URL; its flags left out are off.
 */
export const chatConfigSchema = z.object({
  company_id: z.number().int().positive().default(1),
  webhook_url: z
    .url({ protocol: /^https?$/, error: 'must be the incoming-webhook URL issued by the chat space' })
    .optional(),
  enable_fsm: z.boolean().optional(),
  enable_sales: z.boolean().optional(),
  enable_invoice: z.boolean().optional(),
  enable_po: z.boolean().optional(),
});

export type AccountingConnectionInput = z.infer<typeof accountingConnectionSchema>;
export type SmsConfigInput = z.infer<typeof smsConfigSchema>;
export type SmsLineInput = z.infer<typeof smsLineSchema>;
export type ChatConfigInput = z.infer<typeof chatConfigSchema>;
