/**
 * The owner's console's integrations (docs/integrations.md, "The Integrations screen"): what the
 * signed-in tenant has set up, its SMS credentials, lines and team-chat webhook saved through the
 * integrations package (which owns those tables and seals every secret), "Send a test" of each, and
 * the accounting connection's connect and disconnect. Every change is audited, never with a secret.
 */
import type { IntegrationsView, IntegrationTestOutcome } from '@platform/contracts';
import type { Db } from '@platform/db';
import {
  type AccountingServices,
  type ChatConfigInput,
  type ChatNotifierService,
  type IntegrationSettingsService,
  type IntegrationsOverview,
  type SmsConfigInput,
  type SmsLineInput,
  type SmsService,
  smsWebhookPath,
} from '@platform/integrations';
import { AppError } from '@platform/kernel';
import { findTenantById } from '@platform/tenancy';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { ControlTaxMapping } from './tax-mapping.service.js';

export interface IntegrationsParts {
  settings: IntegrationSettingsService;
  overview: IntegrationsOverview;
  sms: SmsService;
  chat: ChatNotifierService;
  accounting: Pick<AccountingServices, 'connect' | 'check'>;
}

export interface Actor {
  principal: Principal;
  ip?: string;
}

type Which = 'sms' | 'chat' | 'accounting';

const notConfigured = (integration: Which, what: string) =>
  new AppError('INTEGRATION_NOT_CONFIGURED', `Set up ${what} first.`, { details: { integration } });

export const TEST_SMS_BODY = 'A test text from your company’s console: SMS is working.';
export const TEST_CHAT_TEXT = 'A test message from your company’s console: team chat is working.';

export class ControlIntegrations {
  constructor(
    private readonly db: Db,
    private readonly parts: IntegrationsParts,
    private readonly audit: AuditLog,
    /** The accounting connection's tax mapping (tax-mapping.service.ts). */
    readonly taxMapping: ControlTaxMapping,
  ) {}

  async view(tenantId: string): Promise<IntegrationsView> {
    const t = await findTenantById(this.db, tenantId);
    // The default tenant keeps the unsegmented notice path (installs from before tenants had their own).
    return this.parts.overview.view(tenantId, smsWebhookPath(t?.is_default ? undefined : t?.slug));
  }

  async setSms(a: Actor, input: SmsConfigInput): Promise<IntegrationsView> {
    await this.parts.settings.setSmsConfig(a.principal.tenantId, input);
    await this.record(a, 'integrations.sms.set');
    return this.view(a.principal.tenantId);
  }

  async addSmsLine(a: Actor, input: SmsLineInput): Promise<IntegrationsView> {
    const tenantId = a.principal.tenantId;
    if (!(await this.parts.settings.smsSecrets(tenantId))) throw notConfigured('sms', 'the SMS credentials');
    const line = await this.parts.settings.addSmsLine(tenantId, input);
    await this.record(a, 'integrations.sms.line_add', { line_id: line.id, phone_number: line.phone_number });
    return this.view(tenantId);
  }

  async setChat(a: Actor, input: ChatConfigInput): Promise<IntegrationsView> {
    const tenantId = a.principal.tenantId;
    // A first setting needs its URL (a later one may change only flags, keeping the stored URL).
    if (input.webhook_url === undefined && !(await this.parts.settings.chatConfig(tenantId)))
      throw new AppError('VALIDATION_FAILED', 'webhook_url is required for the first setting.', {
        fieldIssues: [{ field: 'webhook_url', rule: 'required', message: 'is required' }],
      });
    await this.parts.settings.setChatConfig(tenantId, input);
    const { company_id: _c, webhook_url, ...flags } = input;
    await this.record(a, 'integrations.chat.set', { ...flags, webhook_url_changed: webhook_url !== undefined });
    return this.view(tenantId);
  }

  /** Queues a text to `to` from the default line; the worker sends it through the outbox like any other. */
  async testSms(a: Actor, to: string): Promise<IntegrationTestOutcome> {
    const tenantId = a.principal.tenantId;
    if (!(await this.parts.settings.smsSecrets(tenantId))) throw notConfigured('sms', 'the SMS credentials');
    if (!(await this.view(tenantId)).sms.lines.length) throw notConfigured('sms', 'a phone line');
    const m = await this.parts.sms.queue(tenantId, { to, body: TEST_SMS_BODY });
    await this.record(a, 'integrations.sms.test', { message_id: m.id });
    const status = await this.parts.sms.messageStatus(tenantId, m.id);
    return {
      ok: true,
      detail: `Test text queued from +${m.from} to +${status?.to ?? to}.`,
      message_id: m.id,
      status: status?.status ?? 'queued',
    };
  }

  async smsMessage(tenantId: string, id: string) {
    const m = await this.parts.sms.messageStatus(tenantId, id);
    if (!m) throw new AppError('NOT_FOUND', 'No such text.');
    return m;
  }

  async testChat(a: Actor): Promise<IntegrationTestOutcome> {
    const out = await this.parts.chat.sendTest(a.principal.tenantId, TEST_CHAT_TEXT);
    if (!out) throw notConfigured('chat', 'the team-chat webhook');
    await this.record(a, 'integrations.chat.test', { ok: out.ok });
    return out;
  }

  async testAccounting(a: Actor): Promise<IntegrationTestOutcome> {
    const out = await this.parts.accounting.check.check(a.principal.tenantId);
    if (!out) throw notConfigured('accounting', 'the accounting connection');
    await this.record(a, 'integrations.accounting.test', { ok: out.ok });
    return out;
  }

  /** The provider's authorize URL for this tenant (a one-use state kept on its connection). */
  async connectAccounting(a: Actor): Promise<{ authorize_url: string }> {
    const url = await this.orNotConfigured(() => this.parts.accounting.connect.start(a.principal.tenantId));
    await this.record(a, 'integrations.accounting.connect');
    return { authorize_url: url };
  }

  async disconnectAccounting(a: Actor): Promise<IntegrationsView> {
    await this.orNotConfigured(() => this.parts.accounting.connect.disconnect(a.principal.tenantId));
    await this.record(a, 'integrations.accounting.disconnect');
    return this.view(a.principal.tenantId);
  }

  /** The package answers NOT_FOUND for a connection never configured: here that is a state, not a path. */
  private async orNotConfigured<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof AppError && e.code === 'NOT_FOUND')
        throw notConfigured('accounting', 'the accounting connection');
      throw e;
    }
  }

  private record(a: Actor, action: string, detail?: Record<string, unknown>): Promise<void> {
    return this.audit.recordUserAction(this.db, a.principal, {
      action,
      target: { type: 'integration', id: action.split('.')[1]! },
      ...(a.ip ? { ip: a.ip } : {}),
      ...(detail ? { detail } : {}),
    });
  }
}
