/**
 * Ordering from suppliers (docs/control-plane.md, "Supplier orders"): the vendors, each grid
 * product's vendor, cost and lead time, and the purchase orders drafted from confirmed sales orders,
 * which the office confirms and receives. Everything lives in the tenant's ERP; the platform keeps
 * only the audit trail and the answers of keyed receipts (a receipt sent twice is recorded once).
 */
import type { PurchaseOrderFilter, PurchaseOrderView } from '@platform/contracts/purchase-orders.js';
import { type Db, withTenant } from '@platform/db';
import { findAnswer, fingerprint, replayStored, storeAnswer } from '@platform/intake';
import type { Clock, WriteAnswer } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { userActor } from '../sales/quotes.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import {
  confirmPurchaseOrder,
  listPurchaseOrders,
  receivePurchaseOrder,
  saleOrderReceived,
} from './purchase-orders-erp.js';
import {
  createSupplier,
  listSuppliers,
  productSupply,
  type ProductSupplyInput,
  setProductSupply,
} from './supplier-products-erp.js';

export interface ReceiveBody {
  lines: { line_id: number; qty: number }[];
}

export class SupplyService {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly currencyOf: (tenantId: string) => Promise<string>,
    /** Told when every window of a sale order has arrived (the customer's "ready to fit" message). */
    private readonly readyToFit: (tenantId: string, saleOrderId: number) => Promise<void> = async () => undefined,
  ) {}

  async suppliers(p: Principal) {
    return { items: await listSuppliers(await this.erps.forTenant(p.tenantId)) };
  }

  async addSupplier(p: Principal, body: { name: string; email: string | null }) {
    const s = await createSupplier(await this.erps.forTenant(p.tenantId), body);
    await this.record(p, 'supply.supplier.create', 'supplier', String(s.id), { name: s.name });
    return s;
  }

  async product(p: Principal, code: string) {
    return productSupply(await this.erps.forTenant(p.tenantId), code, await this.currencyOf(p.tenantId));
  }

  async setProduct(p: Principal, code: string, body: ProductSupplyInput) {
    const erp = await this.erps.forTenant(p.tenantId);
    const v = await setProductSupply(erp, code, body, await this.currencyOf(p.tenantId));
    await this.record(p, 'supply.product.update', 'product', code, { ...body });
    return v;
  }

  async purchaseOrders(p: Principal, filter: PurchaseOrderFilter) {
    const erp = await this.erps.forTenant(p.tenantId);
    return { items: await listPurchaseOrders(erp, filter, this.clock.now()) };
  }

  async confirm(p: Principal, id: number): Promise<PurchaseOrderView> {
    const po = await confirmPurchaseOrder(await this.erps.forTenant(p.tenantId), id, this.clock.now());
    await this.record(p, 'supply.purchase_order.confirm', 'purchase_order', String(id), { name: po.name });
    return po;
  }

  /** With an Idempotency-Key the first answer is replayed: a receipt sent twice is counted once. */
  async receive(p: Principal, id: number, body: ReceiveBody, key?: string): Promise<WriteAnswer<PurchaseOrderView>> {
    const route = `supply:receive:${id}`;
    const fp = fingerprint('supply-receive', body);
    const stored = key && (await withTenant(this.db, p.tenantId, (tx) => findAnswer(tx, p.tenantId, route, key)));
    if (stored) return replayStored<PurchaseOrderView>(stored, fp);
    const erp = await this.erps.forTenant(p.tenantId);
    const po = await receivePurchaseOrder(erp, id, body.lines, this.clock.now());
    await withTenant(this.db, p.tenantId, async (tx) => {
      await this.audit.record(tx, {
        ...userActor(p),
        action: 'supply.purchase_order.receive',
        target: { type: 'purchase_order', id: String(id) },
        detail: { lines: body.lines },
      });
      if (key) await storeAnswer(tx, p.tenantId, route, key, { fingerprint: fp, outcome: 'updated', response: po });
    });
    // The receipt stands even if the customer cannot be told just now.
    if (po.origin && (await saleOrderReceived(erp, po.origin))) {
      const [so] = await erp.search('sale.order', [['name', '=', po.origin]], { limit: 1 });
      if (so) await this.readyToFit(p.tenantId, so).catch(() => undefined);
    }
    return { outcome: 'updated', body: po, replayed: false };
  }

  private record(p: Principal, action: string, type: string, id: string, detail: Record<string, unknown>) {
    return withTenant(this.db, p.tenantId, (tx) =>
      this.audit.record(tx, { ...userActor(p), action, target: { type, id }, detail }),
    );
  }
}
