/**
 * Test kit of the crm-sales features: the control plane (startControlKit) with two tenants, each
 * routed to its own database of a real embedded ERP served over JSON-RPC on loopback, and a local
 * object store in a temporary directory. Tenants A and B each get an owner, an office user and a
 * technician.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createOdooErp, type Erp } from '@platform/erp';
import { startReplyDroppingProxy, startTestErp, type TestErp } from '@platform/erp-embedded/testing';
import type { Clock } from '@platform/kernel';
import { createLocalObjectStore } from '@platform/storage';
import { afterAll, beforeAll } from 'vitest';

import type { TenantErps } from '../features/tenants/tenant-erps.js';
import { type ControlKit, startControlKit } from './control-test-kit.js';

export interface SalesTenant {
  id: string;
  slug: string;
  owner: string;
  office: string;
  technician: string;
  erp: TestErp;
}

export interface CrmSalesKit {
  kit: ControlKit;
  a: SalesTenant;
  b: SalesTenant;
  objectsDir: string;
  /** Routes a tenant to another ERP client (a proxy in front of its ERP). */
  route(tenantId: string, erp: Erp): void;
  call(
    method: string,
    url: string,
    token: string | undefined,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{
    status: number;
    body: any;
    headers: Record<string, unknown>;
  }>;
  close(): Promise<void>;
}

export async function startCrmSalesKit(env: Record<string, string> = {}, clock?: Clock): Promise<CrmSalesKit> {
  const routes = new Map<string, Erp>();
  const erps: TenantErps = {
    forTenant: async (id) => {
      const e = routes.get(id);
      if (!e) throw new Error(`no ERP routed for tenant ${id}`);
      return e;
    },
  };
  const objectsDir = mkdtempSync(join(tmpdir(), 'crm-sales-objects-'));
  const kit = await startControlKit(env, {
    erps,
    objectStore: createLocalObjectStore({ root: objectsDir }),
    ...(clock ? { clock } : {}),
  });
  const erpA = await startTestErp({ db: kit.t.db, dbName: 'tenant_a' });
  const erpB = await startTestErp({ db: kit.t.db, dbName: 'tenant_b' });
  const make = async (slug: string, erp: TestErp): Promise<SalesTenant> => {
    const t = await kit.tenant(slug, 'professional');
    routes.set(t.id, erp.erp);
    return {
      id: t.id,
      slug,
      owner: t.token,
      office: (await kit.member(t.id, 'office')).token,
      technician: (await kit.member(t.id, 'technician')).token,
      erp,
    };
  };
  const a = await make('acme-blinds', erpA);
  const b = await make('bravo-shades', erpB);
  return {
    kit,
    a,
    b,
    objectsDir,
    route: (id, erp) => routes.set(id, erp),
    async call(method, url, token, body, headers = {}) {
      const r = await kit.app.inject({
        method: method as 'GET',
        url,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: r.statusCode, body: r.body ? JSON.parse(r.body) : undefined, headers: r.headers };
    },
    async close() {
      await erpA.stop();
      await erpB.stop();
      await kit.close();
      rmSync(objectsDir, { recursive: true, force: true });
    },
  };
}

/** One kit for the whole test file: started before its tests, closed after; call the result for it. */
export function useCrmSalesKit(): () => CrmSalesKit {
  let k: CrmSalesKit | undefined;
  beforeAll(async () => {
    k = await startCrmSalesKit();
  }, 120_000);
  afterAll(async () => k?.close());
  return () => k!;
}

type DroppingProxy = Awaited<ReturnType<typeof startReplyDroppingProxy>>;

/** Runs `fn` with the tenant's ERP reached through a proxy that can drop replies; restores it after. */
export async function throughDroppingProxy<T>(
  k: CrmSalesKit,
  tenant: SalesTenant,
  fn: (proxy: DroppingProxy) => Promise<T>,
): Promise<T> {
  const proxy = await startReplyDroppingProxy(tenant.erp.url);
  try {
    const erp = createOdooErp({
      url: proxy.url,
      db: tenant.erp.dbName,
      login: 'admin',
      secret: tenant.erp.apiKey,
      timeoutMs: 10_000,
    });
    k.route(tenant.id, erp);
    return await fn(proxy);
  } finally {
    k.route(tenant.id, tenant.erp.erp);
    await proxy.close();
  }
}
