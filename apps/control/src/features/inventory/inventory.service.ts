/**
 * Stock (docs/inventory.md, plan feature `inventory`): the stocked parts and their quantities, new
 * parts, counts with a reason (the only way stock is set below what moves allow), receipts, the
 * reorder list and its purchase orders, and the parts each product needs per window. The stock
 * itself lives in the tenant's ERP; every method refuses a plan without the feature first
 * (PLAN_FEATURE_MISSING naming the cheapest plan that has it).
 */
import type {
  DraftedReorder,
  NewPart,
  PartView,
  ProductPart,
  ReorderAnswer,
  StockAdjustment,
} from '@platform/contracts/inventory.js';
import { fromMinor } from '@platform/contracts/money.js';
import { type Db, withTenant } from '@platform/db';
import type { Erp } from '@platform/erp';
import { AppError, type Clock, type WriteAnswer } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import { userActor } from '../sales/quotes.service.js';
import { productOf } from '../supply/supplier-products-erp.js';
import type { PartsArrived } from '../supply/supply.service.js';
import { createPurchaseOrder } from '../supply/supply-erp.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import * as repo from './inventory.repo.js';
import {
  adjustPart,
  createPart,
  listParts,
  partOf,
  receiptDone,
  receivePart,
  receiveParts,
  stockedAmong,
} from './inventory-erp.js';
import { keyedWrite } from './inventory-keyed.js';

export const FEATURE = 'inventory';
/** The origin of purchase orders drafted from the reorder list (one draft per vendor at a time). */
export const REORDER_ORIGIN = 'Reorder list';

export interface InventoryParts {
  db: Db;
  erps: TenantErps;
  plans: PlanLimits;
  audit: AuditLog;
  clock: Clock;
  currencyOf(tenantId: string): Promise<string>;
}

const slug = (name: string) =>
  name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 50) || 'PART';

export class InventoryService {
  constructor(private readonly d: InventoryParts) {}

  /** The tenant's ERP and currency, once the plan is known to include stock. */
  async open(p: Principal): Promise<{ erp: Erp; currency: string }> {
    await withTenant(this.d.db, p.tenantId, (tx) => this.d.plans.assertFeature(tx, p.tenantId, FEATURE));
    return { erp: await this.d.erps.forTenant(p.tenantId), currency: await this.d.currencyOf(p.tenantId) };
  }

  /** Technicians (the field app's list of parts) are not shown what parts cost or who supplies them. */
  async parts(p: Principal) {
    const { erp, currency } = await this.open(p);
    const items = await listParts(erp, currency);
    if (p.role !== 'technician') return { items };
    return { items: items.map((x) => ({ ...x, supplier: null, supplier_code: null, cost_minor: null })) };
  }

  async createPart(p: Principal, body: NewPart): Promise<PartView> {
    const { erp, currency } = await this.open(p);
    const part = await createPart(erp, { ...body, code: body.code || `PART-${slug(body.name)}` }, currency);
    await this.record(p, 'inventory.part.create', part.id, { name: part.name, code: part.code });
    return part;
  }

  async adjust(p: Principal, id: number, body: StockAdjustment): Promise<PartView> {
    const { erp, currency } = await this.open(p);
    const before = await partOf(erp, id, currency);
    await adjustPart(erp, id, body.quantity, body.reason);
    await this.record(p, 'inventory.part.adjust', id, { from: before.on_hand, to: body.quantity, reason: body.reason });
    return partOf(erp, id, currency);
  }

  async receive(p: Principal, id: number, body: { qty: number }, key?: string): Promise<WriteAnswer<PartView>> {
    const { erp, currency } = await this.open(p);
    await partOf(erp, id, currency);
    return keyedWrite(this.d.db, this.d.audit, p, {
      route: `inventory:receive:${id}`,
      body,
      key,
      outcome: 'updated',
      run: async () => {
        await receivePart(erp, id, body.qty, `Receipt ${this.d.clock.now().toISOString().slice(0, 10)}`);
        return partOf(erp, id, currency);
      },
      audit: { action: 'inventory.part.receive', target: { type: 'part', id: String(id) }, detail: { qty: body.qty } },
    });
  }

  /**
   * What a supplier order brought (product → quantity, from supply's receipt): its stocked parts go
   * into stock on one validated receipt named `origin`; windows made to measure are not stock. A
   * keyed receipt (`once`) looks for its done receipt first, so a retry after a failure between this
   * and the order's own update does not count the parts twice. No plan check: a tenant holding
   * stocked parts had the feature when it made them, and its deliveries must still arrive.
   */
  // A property, not a method: the supply feature is handed the function itself (deps.ts).
  readonly receivePurchased: PartsArrived = async (p, origin, products, once) => {
    const erp = await this.d.erps.forTenant(p.tenantId);
    const parts = await stockedAmong(erp, [...products.keys()]);
    if (!parts.length || (once && (await receiptDone(erp, origin)))) return;
    const receipt = new Map(parts.map((id) => [id, products.get(id)!]));
    const name = await receiveParts(erp, receipt, origin);
    await withTenant(this.d.db, p.tenantId, (tx) =>
      this.d.audit.record(tx, {
        ...userActor(p),
        action: 'inventory.purchase_receipt',
        target: { type: 'stock_picking', id: name },
        detail: { origin, parts: Object.fromEntries(receipt) },
      }),
    );
  };

  async reorder(p: Principal): Promise<ReorderAnswer> {
    const { erp, currency } = await this.open(p);
    const below = (await listParts(erp, currency)).filter((x) => x.below_min);
    return { items: below.map((part) => ({ part, suggested_qty: suggested(part) })) };
  }

  /** One draft purchase order per vendor of the parts on the reorder list (a draft already made is kept). */
  async draftReorder(p: Principal, partIds?: number[]): Promise<DraftedReorder> {
    const { erp, currency } = await this.open(p);
    const below = (await listParts(erp, currency, partIds)).filter((x) => x.below_min && x.supplier);
    const byVendor = new Map<number, PartView[]>();
    for (const part of below) byVendor.set(part.supplier!.id, [...(byVendor.get(part.supplier!.id) ?? []), part]);
    const out: DraftedReorder['purchase_orders'] = [];
    for (const [vendor, parts] of byVendor) {
      const [found] = await erp.search('purchase.order', [
        ['origin', '=', REORDER_ORIGIN],
        ['partner_id', '=', vendor],
        ['state', '=', 'draft'],
      ]);
      const lines = parts.map((x) => ({
        name: x.supplier_code ? `[${x.supplier_code}] ${x.name}` : x.name,
        productId: x.id,
        qty: suggested(x),
        price: fromMinor(x.cost_minor ?? 0, currency),
        delay: 1,
      }));
      const id = found ?? (await createPurchaseOrder(erp, vendor, REORDER_ORIGIN, lines, this.d.clock.now()));
      const [po] = await erp.read('purchase.order', [id], ['name']);
      out.push({ id, name: String(po?.name ?? ''), supplier: parts[0]!.supplier!.name, created: !found });
      if (!found) await this.record(p, 'inventory.reorder.draft', id, { parts: parts.map((x) => x.id) });
    }
    return { purchase_orders: out };
  }

  async productParts(p: Principal, code: string): Promise<{ code: string; parts: ProductPart[] }> {
    await this.open(p);
    return { code, parts: await withTenant(this.d.db, p.tenantId, (tx) => repo.partsOfProduct(tx, p.tenantId, code)) };
  }

  async setProductParts(p: Principal, code: string, parts: ProductPart[]) {
    const { erp, currency } = await this.open(p);
    const known = new Set(
      (
        await listParts(
          erp,
          currency,
          parts.map((x) => x.part_id),
        )
      ).map((x) => x.id),
    );
    const bad = parts.findIndex((x) => !known.has(x.part_id));
    if (bad >= 0)
      throw new AppError('VALIDATION_FAILED', 'Each part must be a stocked part.', {
        fieldIssues: [{ field: `parts.${bad}.part_id`, rule: 'exists', message: 'must be a stocked part' }],
      });
    // The grid's product in the ERP (made with its code if new), so quotes' windows name it.
    await productOf(erp, code, true);
    await withTenant(this.d.db, p.tenantId, async (tx) => {
      await repo.setPartsOfProduct(tx, p.tenantId, code, parts);
      await this.d.audit.record(tx, {
        ...userActor(p),
        action: 'inventory.product_parts.update',
        target: { type: 'product', id: code },
        detail: { parts },
      });
    });
    return { code, parts };
  }

  private record(p: Principal, action: string, id: number, detail: Record<string, unknown>) {
    return withTenant(this.d.db, p.tenantId, (tx) =>
      this.d.audit.record(tx, { ...userActor(p), action, target: { type: 'part', id: String(id) }, detail }),
    );
  }
}

/** Enough to come back up to the reorder maximum (at least to the minimum). */
export const suggested = (x: PartView) => Math.max(x.reorder_max - x.available, x.reorder_min - x.available, 0);
