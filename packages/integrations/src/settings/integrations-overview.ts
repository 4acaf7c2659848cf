/**
 * One tenant's integrations in a glance (the console's Integrations screen): the accounting
 * connection's state, organisation, last sync and last error; whether SMS is configured and its
 * lines; the team-chat webhook's origin and flags. Secrets never leave: masked or left out.
 */
import type { IntegrationsView } from '@platform/contracts';
import type { Db } from '@platform/db';
import { maskSecret } from '@platform/secrets';

import { listAttention } from '../accounting/accounting.repo.js';
import type { IntegrationSettingsService } from './integration-settings.service.js';
import { lastAccountingSync } from './overview.repo.js';
import { findAccounting, listSmsLines } from './settings.repo.js';
import { smsLineView } from './sms-line-view.js';

export class IntegrationsOverview {
  constructor(
    private readonly db: Db,
    private readonly settings: IntegrationSettingsService,
  ) {}

  /** `smsWebhookPath`: the tenant's notice path on the ERP host (smsWebhookPath of its slug). */
  async view(tenantId: string, smsWebhookPath: string, companyId = 1): Promise<IntegrationsView> {
    const [acct, lastSync, attention, sms, lines, chat] = await Promise.all([
      findAccounting(this.db, tenantId, companyId),
      lastAccountingSync(this.db, tenantId),
      listAttention(this.db, tenantId),
      this.settings.smsSecrets(tenantId, companyId),
      listSmsLines(this.db, tenantId),
      this.settings.chatConfig(tenantId, companyId),
    ]);
    return {
      accounting: {
        state: acct?.status ?? 'not_configured',
        name: acct?.name ?? null,
        organisation: acct?.status === 'connected' ? acct.provider_tenant_name : null,
        last_sync_at: lastSync?.toISOString() ?? null,
        last_error: acct?.status_detail ?? null,
        needs_attention: attention.length,
      },
      sms: {
        configured: Boolean(sms),
        api_key: sms ? maskSecret(sms.apiKey) : null,
        webhook_base_url: sms?.webhookBaseUrl ?? null,
        webhook_url: sms ? `${sms.webhookBaseUrl}${smsWebhookPath}` : null,
        lines: lines.map(smsLineView),
      },
      chat: {
        configured: Boolean(chat),
        webhook_origin: chat ? new URL(chat.webhookUrl).origin : null,
        enable_fsm: chat?.enable_fsm ?? false,
        enable_sales: chat?.enable_sales ?? false,
        enable_invoice: chat?.enable_invoice ?? false,
        enable_po: chat?.enable_po ?? false,
      },
    };
  }
}
