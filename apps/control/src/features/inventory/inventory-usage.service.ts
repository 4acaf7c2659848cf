/**
 * Parts leaving the stock (docs/inventory.md): a confirmed order reserves what its windows need
 * (the products' parts per window), and an install job's parts used are consumed. Consuming more
 * than is on hand is refused naming the part (STOCK_INSUFFICIENT): only a count takes stock lower.
 */
import type { PartsUsedAnswer, PartUsed } from '@platform/contracts/inventory.js';
import { type Db, withTenant } from '@platform/db';
import { AppError, type WriteAnswer } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { JobsReader } from '../jobs/jobs.service.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import * as repo from './inventory.repo.js';
import { FEATURE, type InventoryService } from './inventory.service.js';
import { listParts } from './inventory-erp.js';
import { keyedWrite } from './inventory-keyed.js';
import { consumedParts, consumeParts, reserveParts, windowsOfOrder } from './inventory-moves-erp.js';

export interface UsageParts {
  db: Db;
  erps: TenantErps;
  plans: PlanLimits;
  audit: AuditLog;
  jobs: JobsReader;
  inventory: InventoryService;
}

export type ReserveResult =
  { skipped: 'no_feature' | 'not_confirmed' | 'no_parts' } | { pickingId: number; created: boolean };

export class InventoryUsage {
  constructor(private readonly d: UsageParts) {}

  /** The outbox job's step: the confirmed order's parts reserved in one delivery (kept if it exists). */
  async reserveForOrder(tenantId: string, saleOrderId: number): Promise<ReserveResult> {
    const plan = await withTenant(this.d.db, tenantId, (tx) => this.d.plans.plan(tx, tenantId));
    if (!plan.features[FEATURE]) return { skipped: 'no_feature' };
    const erp = await this.d.erps.forTenant(tenantId);
    const so = await windowsOfOrder(erp, saleOrderId);
    if (so.state !== 'sale' && so.state !== 'done') return { skipped: 'not_confirmed' };
    const byCode = await withTenant(this.d.db, tenantId, (tx) =>
      repo.partsOfProducts(tx, tenantId, [...so.windows.keys()]),
    );
    const needs = new Map<number, number>();
    for (const [code, windows] of so.windows)
      for (const part of byCode.get(code) ?? [])
        needs.set(part.part_id, (needs.get(part.part_id) ?? 0) + part.qty_per_window * windows);
    if (!needs.size) return { skipped: 'no_parts' };
    return reserveParts(erp, so.name, so.partner, needs);
  }

  /** The parts the technician used on the job: one move per part, once (a retry changes nothing). */
  async partsUsed(p: Principal, jobId: string, parts: PartUsed[], key?: string): Promise<WriteAnswer<PartsUsedAnswer>> {
    const job = (await this.d.jobs.load(p, jobId)).order;
    const { erp, currency } = await this.d.inventory.open(p);
    const used = new Map<number, number>();
    for (const x of parts) used.set(x.part_id, (used.get(x.part_id) ?? 0) + x.qty);
    const stock = new Map((await listParts(erp, currency, [...used.keys()])).map((x) => [x.id, x]));
    parts.forEach((x, i) => {
      if (!stock.has(x.part_id))
        throw new AppError('VALIDATION_FAILED', 'Each part must be a stocked part.', {
          fieldIssues: [{ field: `parts.${i}.part_id`, rule: 'exists', message: 'must be a stocked part' }],
        });
    });
    const order = job.saleOrderId ? (await erp.read('sale.order', [job.saleOrderId], ['name']))[0] : undefined;
    const done = `${order?.name ? `${String(order.name)} ` : ''}${job.name}`;
    const answer = (m: Map<number, number>): PartsUsedAnswer => ({
      job_id: jobId,
      parts: [...m].map(([part_id, qty]) => ({ part_id, qty, name: stock.get(part_id)?.name ?? String(part_id) })),
    });
    return keyedWrite(this.d.db, this.d.audit, p, {
      route: `inventory:parts-used:${jobId}`,
      body: parts,
      key,
      outcome: 'created',
      run: async () => {
        // Consumed already (an earlier call without a key): what was consumed then is the answer.
        const before = await consumedParts(erp, done);
        if (before) return answer(before);
        this.refuseShort(parts, used, stock);
        await consumeParts(erp, order?.name ? String(order.name) : null, done, used);
        return answer(used);
      },
      audit: { action: 'inventory.parts_used', target: { type: 'job', id: jobId }, detail: { parts } },
    });
  }

  private refuseShort(
    parts: PartUsed[],
    used: Map<number, number>,
    stock: Map<number, { name: string; on_hand: number }>,
  ) {
    for (const [part, qty] of used) {
      const s = stock.get(part)!;
      if (qty <= s.on_hand) continue;
      const i = parts.findIndex((x) => x.part_id === part);
      throw new AppError('STOCK_INSUFFICIENT', `Not enough ${s.name} in stock: ${s.on_hand} on hand, ${qty} used.`, {
        fieldIssues: [{ field: `parts.${i}.qty`, rule: 'stock', message: `only ${s.on_hand} ${s.name} in stock` }],
        details: { part: s.name, on_hand: s.on_hand, requested: qty },
      });
    }
  }
}
