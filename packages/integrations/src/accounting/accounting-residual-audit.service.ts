/**
 * The periodic reconciliation: a provider notice can be lost for good (never delivered, or answered
 * too late), so every so often each synced invoice's ERP residual is compared with the provider's
 * AmountDue, and where they differ the same `accounting.webhook` job a notice would have queued is
 * queued for it (once per invoice per pass), so the idempotent repair of
 * accounting-reconcile.service.ts brings the ERP to the provider, or flags what it cannot settle.
 * One provider call per posted synced invoice; a rate limit or a connection waiting for a reconnect
 * ends the tenant's pass early (the next pass starts over).
 */
import { TOPIC_ACCOUNTING_PUSH_MONEY, TOPIC_ACCOUNTING_WEBHOOK } from '@platform/contracts';
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { enqueue, RetryLater } from '@platform/outbox';
import type { AccountingApi } from '@platform/providers';

import { findAccounting } from '../settings/settings.repo.js';
import * as repo from './accounting.repo.js';
import type { AccountingCalls } from './accounting-calls.js';
import { m2oId } from './accounting-invoice.mapping.js';
import type { AccountingMoneyOutService } from './accounting-money-out.service.js';

export interface ResidualAuditResult {
  checked: number;
  /** Provider invoice ids whose repair job was queued in this pass. */
  queued: string[];
  /** ERP payments and credit notes (`model:id`) whose send to the provider was queued in this pass. */
  pushQueued: string[];
  /** Provider invoice ids the provider could not be asked about, or whose unsent ERP money could not be looked up (tried again next pass). */
  failed: string[];
  /** Why the pass ended before the last invoice, if it did. */
  stoppedEarly?: string;
}

const cents = (n: number) => Math.round(n * 100);

export class AccountingResidualAudit {
  constructor(
    private readonly db: Db,
    private readonly api: AccountingApi,
    private readonly calls: AccountingCalls,
    private readonly moneyOut?: AccountingMoneyOutService,
  ) {}

  tenants(): Promise<string[]> {
    return repo.listConnectedTenants(this.db);
  }

  /** `passId` names the pass: a difference already queued in this pass is not queued again. */
  async auditTenant(tenantId: string, erp: Erp, passId: string): Promise<ResidualAuditResult> {
    const out: ResidualAuditResult = { checked: 0, queued: [], pushQueued: [], failed: [] };
    const sent = await repo.listSentInvoices(this.db, tenantId);
    if (sent.length === 0) return out;
    const moves = new Map(
      (
        await erp.read(
          'account.move',
          sent.map((s) => s.erp_invoice_id),
          ['state', 'company_id', 'amount_residual'],
        )
      ).map((m) => [m.id, m]),
    );
    for (const s of sent) {
      const move = moves.get(s.erp_invoice_id);
      if (move?.['state'] !== 'posted') continue;
      const row = await findAccounting(this.db, tenantId, m2oId(move['company_id']) ?? 1);
      if (!row?.provider_tenant_id) continue;
      let amountDue: number;
      try {
        amountDue = (
          await this.calls.call(row, 'get invoice', (auth) => this.api.getInvoice(auth, s.provider_invoice_id))
        ).amountDue;
      } catch (e) {
        if (e instanceof RetryLater) return { ...out, stoppedEarly: e.message };
        out.failed.push(s.provider_invoice_id);
        continue;
      }
      out.checked++;
      if (cents(Number(move['amount_residual'] ?? 0)) === cents(amountDue)) continue;
      // ERP money that never reached the provider (its change missed): send it, once per record per pass.
      // (An ERP that cannot be searched so is asked again next pass; the repair job below is queued anyway.)
      const unsent = await this.moneyOut?.unsent(tenantId, s.erp_db, s.erp_invoice_id, erp).catch(() => {
        out.failed.push(s.provider_invoice_id);
        return [];
      });
      for (const k of unsent ?? []) {
        const job = await enqueue(this.db, {
          tenantId,
          topic: TOPIC_ACCOUNTING_PUSH_MONEY,
          aggregateId: `${k.model}:${k.id}`,
          dedupeKey: `accounting-money-out:${k.erpDb}:${k.model}:${k.id}:${passId}`,
          payload: {
            erpDb: k.erpDb,
            model: k.model,
            recordId: k.id,
            field: 'state',
            old: null,
            new: 'posted',
            oldLabel: null,
            newLabel: null,
            writeDate: passId,
            record: {},
          },
        });
        if (job !== null) out.pushQueued.push(`${k.model}:${k.id}`);
      }
      const id = await enqueue(this.db, {
        tenantId,
        topic: TOPIC_ACCOUNTING_WEBHOOK,
        aggregateId: s.provider_invoice_id,
        dedupeKey: `accounting-reconcile:${s.provider_invoice_id}:${passId}`,
        payload: { providerTenantId: row.provider_tenant_id, invoiceId: s.provider_invoice_id, eventDateUtc: passId },
      });
      if (id !== null) out.queued.push(s.provider_invoice_id);
    }
    return out;
  }
}
