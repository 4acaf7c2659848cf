/**
 * Ordering from suppliers (docs/control-plane.md, "Supplier orders"): the vendors, each grid
 * product's vendor, cost and lead time, and the purchase orders drafted from confirmed sales orders,
 * which the office confirms and receives. Everything lives in the tenant's ERP; the platform keeps
 * only the audit trail and the answers of keyed receipts (a receipt sent twice is recorded once).
 */
import type {
  PurchaseOrderConfirmAnswer,
  PurchaseOrderFilter,
  PurchaseOrderView,
} from '@platform/contracts/purchase-orders.js';
import { type Db, type Queryable, withTenant } from '@platform/db';
import {
  findAnswer,
  fingerprint,
  LEASE_SECONDS,
  replayStored,
  storeAnswer,
  untilFree,
  type WaitOptions,
} from '@platform/intake';
import type { Clock, WriteAnswer } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { userActor } from '../sales/quotes.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { purchaseOrderEmail, type PurchaseOrderEmailParts, queuePurchaseOrderEmail } from './purchase-order-email.js';
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
import { releaseReceiptLease, takeReceiptLease } from './supply.repo.js';

export interface ReceiveBody {
  lines: { line_id: number; qty: number }[];
}

/**
 * The stock side of a receipt: `origin` names the stock receipt (the order's name, with the
 * Idempotency-Key when there is one, `once` then: a retry finds the receipt it already made).
 */
export type PartsArrived = (
  p: Principal,
  origin: string,
  products: Map<number, number>,
  once: boolean,
) => Promise<void>;

export class SupplyService {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly currencyOf: (tenantId: string) => Promise<string>,
    private readonly mail: PurchaseOrderEmailParts,
    /** How a receipt waits for another of the same order (tests shorten the pause). */
    private readonly wait: WaitOptions = {},
    /** Told when every window of a sale order has arrived (the customer's "ready to fit" message). */
    private readonly readyToFit: (tenantId: string, saleOrderId: number) => Promise<void> = async () => undefined,
    /** Told what products a receipt brought, before the order records it (the inventory feature stocks the parts). */
    private readonly partsArrived: PartsArrived = async () => undefined,
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

  /** Confirms the order and emails it to the supplier, once per confirmation (`emailed_to`: null without an address). */
  async confirm(p: Principal, id: number): Promise<PurchaseOrderConfirmAnswer> {
    const erp = await this.erps.forTenant(p.tenantId);
    const po = await confirmPurchaseOrder(erp, id, this.clock.now());
    const mail = await purchaseOrderEmail(erp, this.mail, p, po);
    await withTenant(this.db, p.tenantId, async (tx) => {
      const queued = mail ? await queuePurchaseOrderEmail(tx, this.mail, p.tenantId, mail) : false;
      await this.audit.record(tx, {
        ...userActor(p),
        action: 'supply.purchase_order.confirm',
        target: { type: 'purchase_order', id: String(id) },
        detail: { name: po.name, emailed_to: mail?.to.address ?? null, email_queued: queued },
      });
    });
    return { ...po, emailed_to: mail?.to.address ?? null };
  }

  /**
   * With an Idempotency-Key the first answer is replayed: a receipt sent twice is counted once. Two
   * receipts of one order take its lease in turn: the later one replays the first's answer under the
   * same key, or is measured against what the first received (more than is left is refused).
   */
  async receive(p: Principal, id: number, body: ReceiveBody, key?: string): Promise<WriteAnswer<PurchaseOrderView>> {
    const route = `supply:receive:${id}`;
    const fp = fingerprint('supply-receive', body);
    const inTenant = <T>(f: (tx: Queryable) => Promise<T>) => withTenant(this.db, p.tenantId, f);
    const storedAnswer = async () => key && (await inTenant((tx) => findAnswer(tx, p.tenantId, route, key)));
    const first = await untilFree(async () => {
      if (!(await inTenant((tx) => takeReceiptLease(tx, p.tenantId, id, LEASE_SECONDS)))) return undefined;
      // Under the lease: the receipt that held it before may have stored this key's answer.
      const stored = await storedAnswer();
      if (!stored) return null;
      await inTenant((tx) => releaseReceiptLease(tx, p.tenantId, id));
      return replayStored<PurchaseOrderView>(stored, fp);
    }, this.wait);
    if (first) return first;
    try {
      const erp = await this.erps.forTenant(p.tenantId);
      const po = await receivePurchaseOrder(erp, id, body.lines, this.clock.now(), (order, products) =>
        this.partsArrived(p, key ? `${order.name} · ${key}` : order.name, products, !!key),
      );
      await inTenant(async (tx) => {
        await this.audit.record(tx, {
          ...userActor(p),
          action: 'supply.purchase_order.receive',
          target: { type: 'purchase_order', id: String(id) },
          detail: { lines: body.lines },
        });
        if (key) await storeAnswer(tx, p.tenantId, route, key, { fingerprint: fp, outcome: 'updated', response: po });
      });
      await this.tellReadyToFit(p.tenantId, po).catch(() => undefined);
      return { outcome: 'updated', body: po, replayed: false };
    } finally {
      await inTenant((tx) => releaseReceiptLease(tx, p.tenantId, id));
    }
  }

  /** Every window of the order's sale order arrived: its customer hears (the receipt stands regardless). */
  private async tellReadyToFit(tenantId: string, po: PurchaseOrderView): Promise<void> {
    if (!po.origin) return;
    const erp = await this.erps.forTenant(tenantId);
    if (!(await saleOrderReceived(erp, po.origin))) return;
    const [so] = await erp.search('sale.order', [['name', '=', po.origin]], { limit: 1 });
    if (so) await this.readyToFit(tenantId, so);
  }

  private record(p: Principal, action: string, type: string, id: string, detail: Record<string, unknown>) {
    return withTenant(this.db, p.tenantId, (tx) =>
      this.audit.record(tx, { ...userActor(p), action, target: { type, id }, detail }),
    );
  }
}
