/**
 * Needs-attention items of the accounting sync, kept in two places the office sees: the
 * accounting_attention table (`GET /acct/status`, `npm run integrations -- accounting show`) and the
 * ERP invoice itself (`x_acct_sync_issue`, every open item's text). Never retried by themselves:
 * the sync clears an item when the provider and the ERP agree again.
 */
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';

import { type AttentionKind, listAttention, openAttention, resolveAttention } from './accounting.repo.js';

/** The ERP field of account.move showing open items (docs/erp.md). */
export const ERP_SYNC_ISSUE_FIELD = 'x_acct_sync_issue';
const MOVE = 'account.move';

export class AccountingAttention {
  constructor(private readonly db: Db) {}

  async flag(
    tenantId: string,
    erp: Erp,
    erpDb: string,
    moveId: number,
    kind: AttentionKind,
    detail: string,
  ): Promise<void> {
    await openAttention(this.db, tenantId, { erp_db: erpDb, erp_model: MOVE, erp_id: moveId, kind, detail });
    await this.show(tenantId, erp, erpDb, moveId);
  }

  async clear(tenantId: string, erp: Erp, erpDb: string, moveId: number, kinds: AttentionKind[]): Promise<void> {
    const open = await listAttention(this.db, tenantId, { erpDb, model: MOVE, id: moveId });
    if (!open.some((a) => kinds.includes(a.kind))) return;
    await resolveAttention(this.db, tenantId, erpDb, MOVE, moveId, kinds);
    await this.show(tenantId, erp, erpDb, moveId);
  }

  list(tenantId: string) {
    return listAttention(this.db, tenantId);
  }

  private async show(tenantId: string, erp: Erp, erpDb: string, moveId: number): Promise<void> {
    const open = await listAttention(this.db, tenantId, { erpDb, model: MOVE, id: moveId });
    await erp.write(MOVE, [moveId], {
      [ERP_SYNC_ISSUE_FIELD]: open.length ? open.map((a) => a.detail).join(' | ') : false,
    });
  }
}
