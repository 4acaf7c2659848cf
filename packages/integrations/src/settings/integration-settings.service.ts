/**
 * Integration settings per tenant and ERP company: secrets are sealed before they reach the database
 * and shown back masked; phone numbers are normalised to E.164 digits; one SMS line is the default.
 */
import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';
import { GOOGLE_CHAT_ORIGIN } from '@platform/providers';
import { maskSecret, type SecretBox } from '@platform/secrets';

import { listAttention } from '../accounting/accounting.repo.js';
import { DEFAULT_SMS_WEBHOOK_PATH } from '../sms/sms-webhook-path.js';
import { checkChatWebhookUrl } from './chat-webhook-url.js';
import * as repo from './settings.repo.js';
import type { AccountingConnectionInput, ChatConfigInput, SmsConfigInput, SmsLineInput } from './settings.schemas.js';
import { smsLineView } from './sms-line-view.js';

export type PhoneNormalizer = (raw: string) => string | undefined;

const aad = (tenantId: string, table: string, column: string, key: string | number) =>
  `${tenantId}|${table}|${column}|${key}`;

export class IntegrationSettingsService {
  private readonly chatOrigins: Set<string>;

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly normalizePhone: PhoneNormalizer,
    /** CHAT_ALLOWED_ORIGINS: the only origins a team-chat webhook URL may point at (the worker's poster refuses others). */
    chatAllowedOrigins: string[] = [GOOGLE_CHAT_ORIGIN],
  ) {
    this.chatOrigins = new Set(chatAllowedOrigins.map((o) => new URL(o).origin));
  }

  seal = (tenantId: string, table: string, column: string, key: string | number, value: string): string =>
    this.box.seal(value, aad(tenantId, table, column, key));
  open = (tenantId: string, table: string, column: string, key: string | number, sealed: string): string =>
    this.box.open(sealed, aad(tenantId, table, column, key));

  async setAccountingConnection(tenantId: string, i: AccountingConnectionInput): Promise<Record<string, unknown>> {
    const k = i.company_id;
    const old = await repo.findAccounting(this.db, tenantId, k);
    const oldKey = old
      ? this.open(tenantId, 'accounting_connections', 'webhook_key', k, old.webhook_key_enc)
      : undefined;
    await this.db.transaction(async (tx) => {
      await repo.upsertAccounting(tx, {
        tenant_id: tenantId,
        company_id: k,
        name: i.name,
        client_id: i.client_id,
        client_secret_enc: this.seal(tenantId, 'accounting_connections', 'client_secret', k, i.client_secret),
        redirect_uri: i.redirect_uri,
        webhook_key_enc: this.seal(tenantId, 'accounting_connections', 'webhook_key', k, i.webhook_key),
        down_payment_product_id: i.down_payment_product_id ?? null,
        payment_journal_id: i.payment_journal_id ?? null,
        sales_account_code: i.sales_account_code,
        deposit_account_code: i.deposit_account_code,
        payment_account_code: i.payment_account_code,
        tax_types: i.tax_types,
        no_tax_type: i.no_tax_type,
      });
      // A new Webhook Key: the replaced one (its sealed value, still bound to `webhook_key`) stays accepted for the overlap.
      if (old && oldKey !== i.webhook_key)
        await repo.setPreviousSecret(
          tx,
          'accounting_connections',
          tenantId,
          k,
          ...this.overlap(old.webhook_key_enc, i.rotation_overlap_hours),
        );
    });
    return this.showAccountingConnection(tenantId, k);
  }

  /** What an operator may see: secrets masked, tokens never. */
  async showAccountingConnection(tenantId: string, companyId = 1): Promise<Record<string, unknown>> {
    const r = await repo.findAccounting(this.db, tenantId, companyId);
    if (!r) throw new AppError('NOT_FOUND', 'No accounting connection is configured for this company.');
    return {
      id: r.id,
      name: r.name,
      company_id: r.company_id,
      client_id: r.client_id,
      client_secret: maskSecret(
        this.open(tenantId, 'accounting_connections', 'client_secret', r.company_id, r.client_secret_enc),
      ),
      redirect_uri: r.redirect_uri,
      webhook_key: maskSecret(
        this.open(tenantId, 'accounting_connections', 'webhook_key', r.company_id, r.webhook_key_enc),
      ),
      previous_webhook_key_expires_at:
        repo.acceptedWebhookKeys(r).length > 1 ? r.previous_webhook_key_expires_at : null,
      down_payment_product_id: r.down_payment_product_id,
      payment_journal_id: r.payment_journal_id,
      sales_account_code: r.sales_account_code,
      deposit_account_code: r.deposit_account_code,
      payment_account_code: r.payment_account_code,
      tax_types: r.tax_types,
      no_tax_type: r.no_tax_type,
      granted_scopes: r.granted_scopes,
      status: r.status,
      status_detail: r.status_detail,
      provider_tenant_name: r.provider_tenant_name,
      token_expires_at: r.token_expires_at,
      // What the office must look at (ambiguous contacts, unmapped taxes, totals or residuals that differ).
      needs_attention: await listAttention(this.db, tenantId),
    };
  }

  async setSmsConfig(tenantId: string, i: SmsConfigInput): Promise<Record<string, unknown>> {
    const k = i.company_id;
    const old = await this.smsSecrets(tenantId, k);
    await this.db.transaction(async (tx) => {
      await repo.upsertSmsConfig(tx, {
        tenant_id: tenantId,
        company_id: k,
        api_key_enc: this.seal(tenantId, 'sms_configs', 'api_key', k, i.api_key),
        api_secret_enc: this.seal(tenantId, 'sms_configs', 'api_secret', k, i.api_secret),
        webhook_base_url: i.webhook_base_url.replace(/\/+$/, ''),
        webhook_secret_enc: i.webhook_secret
          ? this.seal(tenantId, 'sms_configs', 'webhook_secret', k, i.webhook_secret)
          : null,
      });
      // The signing key is the Webhook Secret, else the API secret: when it changes, the old one stays accepted for the overlap.
      const oldSigning = old ? (old.webhookSecret ?? old.apiSecret) : undefined;
      if (oldSigning !== undefined && oldSigning !== (i.webhook_secret ?? i.api_secret)) {
        await repo.setPreviousSecret(
          tx,
          'sms_configs',
          tenantId,
          k,
          ...this.overlap(
            this.seal(tenantId, 'sms_configs', 'previous_webhook_secret', k, oldSigning),
            i.rotation_overlap_hours,
          ),
        );
      }
    });
    return this.showSmsConfig(tenantId, k);
  }

  /** The sealed previous secret and its expiry, or nothing kept when there is no overlap. */
  private overlap(sealed: string, hours: number): [string | null, Date | null] {
    return hours > 0 ? [sealed, new Date(Date.now() + hours * 3_600_000)] : [null, null];
  }

  async smsSecrets(
    tenantId: string,
    companyId = 1,
  ): Promise<
    | {
        apiKey: string;
        apiSecret: string;
        webhookBaseUrl: string;
        webhookSecret: string | null;
        signingSecrets: string[];
        previousExpiresAt: Date | null;
      }
    | undefined
  > {
    const r = await repo.findSmsConfig(this.db, tenantId, companyId);
    if (!r) return undefined;
    const apiSecret = this.open(tenantId, 'sms_configs', 'api_secret', companyId, r.api_secret_enc);
    const webhookSecret = r.webhook_secret_enc
      ? this.open(tenantId, 'sms_configs', 'webhook_secret', companyId, r.webhook_secret_enc)
      : null;
    const until = r.previous_webhook_secret_expires_at ? new Date(r.previous_webhook_secret_expires_at) : null;
    const previous =
      r.previous_webhook_secret_enc && until && until > new Date()
        ? this.open(tenantId, 'sms_configs', 'previous_webhook_secret', companyId, r.previous_webhook_secret_enc)
        : undefined;
    return {
      apiKey: this.open(tenantId, 'sms_configs', 'api_key', companyId, r.api_key_enc),
      apiSecret,
      webhookBaseUrl: r.webhook_base_url,
      webhookSecret,
      // Current signing key first, then the replaced one while its overlap lasts.
      signingSecrets: [webhookSecret ?? apiSecret, ...(previous !== undefined ? [previous] : [])],
      previousExpiresAt: previous !== undefined ? until : null,
    };
  }

  /** `webhookPath`: the tenant's webhook path on the ERP host (smsWebhookPath), shown as the URL to register. */
  async showSmsConfig(
    tenantId: string,
    companyId = 1,
    webhookPath = DEFAULT_SMS_WEBHOOK_PATH,
  ): Promise<Record<string, unknown>> {
    const s = await this.smsSecrets(tenantId, companyId);
    if (!s) throw new AppError('NOT_FOUND', 'No SMS configuration for this company.');
    const lines = await repo.listSmsLines(this.db, tenantId);
    return {
      company_id: companyId,
      api_key: maskSecret(s.apiKey),
      api_secret: maskSecret(s.apiSecret),
      webhook_base_url: s.webhookBaseUrl,
      webhook_secret: maskSecret(s.webhookSecret),
      webhook_url: `${s.webhookBaseUrl}${webhookPath}`,
      previous_webhook_secret_expires_at: s.previousExpiresAt,
      default_line: lines.find((l) => l.is_default)?.phone_number ?? null,
      lines: lines.map(smsLineView),
    };
  }

  normalizePhoneOrThrow(raw: string, field: string): string {
    const phone = this.normalizePhone(raw);
    if (!phone) {
      throw new AppError('VALIDATION_FAILED', `${field} is not a valid phone number.`, {
        fieldIssues: [
          { field, rule: 'format', message: 'must be a valid phone number (stored as E.164 digits without +)' },
        ],
      });
    }
    return phone;
  }

  async addSmsLine(tenantId: string, i: SmsLineInput): Promise<repo.SmsLineRow> {
    const phone = this.normalizePhoneOrThrow(i.phone_number, 'phone_number');
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sms-lines:${tenantId}`]);
      const existing = await repo.listSmsLines(tx, tenantId);
      const id = await repo.insertSmsLine(tx, {
        tenant_id: tenantId,
        name: i.name,
        phone_number: phone,
        line_type: i.line_type,
        is_default: false,
      });
      // Exactly one default: the first line, or the one marked default (which takes it from the others).
      if (i.is_default || !existing.some((l) => l.is_default && l.id !== id))
        await repo.setDefaultLine(tx, tenantId, id);
      return (await repo.listSmsLines(tx, tenantId)).find((l) => l.id === id)!;
    });
  }

  /** The default line, or the first line of a type. */
  async lineFor(tenantId: string, type?: repo.SmsLineRow['line_type']): Promise<repo.SmsLineRow> {
    const lines = await repo.listSmsLines(this.db, tenantId);
    const line = type
      ? (lines.find((l) => l.line_type === type && l.is_default) ?? lines.find((l) => l.line_type === type))
      : lines.find((l) => l.is_default);
    if (!line)
      throw new AppError('NOT_FOUND', type ? `No SMS line of type ${type}.` : 'No default SMS line is configured.');
    return line;
  }

  async setChatConfig(tenantId: string, i: ChatConfigInput): Promise<Record<string, unknown>> {
    // A stored URL that no longer opens (a lost key) is replaced by a whole new setting, not read.
    const current = await this.chatConfig(tenantId, i.company_id).catch((e: unknown) => {
      if (i.webhook_url) return undefined;
      throw e;
    });
    // Only a new URL is checked: the stored one passed when it was stored, possibly by a process that
    // allows an origin this one does not know (`npm start`'s local chat stand-in, seen from the CLI).
    const webhookUrl =
      i.webhook_url === undefined && current
        ? current.webhookUrl
        : checkChatWebhookUrl(i.webhook_url, this.chatOrigins);
    await repo.upsertChatConfig(this.db, {
      tenant_id: tenantId,
      company_id: i.company_id,
      webhook_url_enc: this.seal(tenantId, 'chat_configs', 'webhook_url', i.company_id, webhookUrl),
      enable_fsm: i.enable_fsm ?? current?.enable_fsm ?? false,
      enable_sales: i.enable_sales ?? current?.enable_sales ?? false,
      enable_invoice: i.enable_invoice ?? current?.enable_invoice ?? false,
      enable_po: i.enable_po ?? current?.enable_po ?? false,
    });
    return this.showChatConfig(tenantId, i.company_id);
  }

  async chatConfig(
    tenantId: string,
    companyId = 1,
  ): Promise<(Omit<repo.ChatConfigRow, 'webhook_url_enc'> & { webhookUrl: string }) | undefined> {
    const r = await repo.findChatConfig(this.db, tenantId, companyId);
    if (!r) return undefined;
    const { webhook_url_enc, ...rest } = r;
    return { ...rest, webhookUrl: this.open(tenantId, 'chat_configs', 'webhook_url', companyId, webhook_url_enc) };
  }

  async showChatConfig(tenantId: string, companyId = 1): Promise<Record<string, unknown>> {
    const c = await this.chatConfig(tenantId, companyId);
    if (!c) throw new AppError('NOT_FOUND', 'No team-chat configuration for this company.');
    // The webhook URL is the credential: show its host only.
    return {
      company_id: companyId,
      webhook_url: `${new URL(c.webhookUrl).origin}/…`,
      enable_fsm: c.enable_fsm,
      enable_sales: c.enable_sales,
      enable_invoice: c.enable_invoice,
      enable_po: c.enable_po,
    };
  }
}
