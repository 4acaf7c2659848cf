/**
 * Test support of /jobs: the control plane (startControlKit) whose TenantErps gives each tenant its
 * own database on a real embedded ERP served over JSON-RPC (optionally behind a reply-dropping
 * proxy), and a real S3-protocol server for uploads. Test code only.
 */
import { createOdooErp, type Erp } from '@platform/erp';
import {
  type ReplyDroppingProxy,
  startReplyDroppingProxy,
  startTestErp,
  type TestErp,
} from '@platform/erp-embedded/testing';
import { createS3ObjectStore } from '@platform/storage';
import { adaptClientToS3rver, startTestS3, type TestS3 } from '@platform/storage/test-support/s3-server.js';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';
import type { TenantErps } from '../tenants/tenant-erps.js';

export interface JobsKit extends ControlKit {
  /** Gives the tenant its own ERP database (through the proxy when asked); returns its admin client. */
  erpFor(tenantId: string, opts?: { proxied?: boolean }): Promise<TestErp & { proxy?: ReplyDroppingProxy }>;
  s3: TestS3;
  /** Authorization (and other) headers for inject(). */
  auth(token: string, extra?: Record<string, string>): Record<string, string>;
  /** POST /jobs with newJob(over) as `token`'s user; the created job as answered. */
  createJob(token: string, over?: Record<string, unknown>): Promise<{ id: string } & Record<string, unknown>>;
}

export async function startJobsKit(env: Record<string, string> = {}): Promise<JobsKit> {
  const byTenant = new Map<string, Erp>();
  const erps: TenantErps = {
    forTenant: async (id) => {
      const erp = byTenant.get(id);
      if (!erp) throw new Error(`test: no ERP for tenant ${id}`);
      return erp;
    },
  };
  const s3 = await startTestS3();
  const objects = createS3ObjectStore({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  });
  adaptClientToS3rver(objects.client);
  const kit = await startControlKit(env, { erps, objects });
  const started: { close(): Promise<void> }[] = [];
  let n = 0;
  return {
    ...kit,
    s3,
    auth: (token, extra = {}) => ({ authorization: `Bearer ${token}`, ...extra }),
    createJob: async (token, over = {}) =>
      (
        await kit.app.inject({
          method: 'POST',
          url: '/jobs',
          headers: { authorization: `Bearer ${token}` },
          payload: newJob(over),
        })
      ).json(),
    async erpFor(tenantId, opts = {}) {
      const erp = await startTestErp({ db: kit.t.db, dbName: `tenant_${++n}` });
      started.push(erp);
      if (!opts.proxied) {
        byTenant.set(tenantId, erp.erp);
        return erp;
      }
      const proxy = await startReplyDroppingProxy(erp.url);
      started.push(proxy);
      byTenant.set(
        tenantId,
        createOdooErp({ url: proxy.url, db: erp.dbName, login: 'admin', secret: erp.apiKey, timeoutMs: 20_000 }),
      );
      return { ...erp, proxy };
    },
    async close() {
      for (const s of started.reverse()) await s.close().catch(() => {});
      await kit.close();
      await s3.close();
    },
  };
}

/** Two Professional tenants, each with its own ERP database (the isolation tests' A and B). */
export async function tenantsWithErps(kit: JobsKit, slugA: string, slugB: string) {
  const one = async (slug: string) => {
    const t = await kit.tenant(slug, 'professional');
    await kit.erpFor(t.id);
    return t;
  };
  return [await one(slugA), await one(slugB)] as const;
}

/** A job body as the office sends it. */
export function newJob(over: Record<string, unknown> = {}) {
  return {
    customer: { name: 'Dana Whitfield', phone: '+1 303 555 0142', email: 'dana@example.com' },
    address: { street: '1420 Larimer St', city: 'Denver', zip: '80202', state: 'CO' },
    scheduled_start: '2026-11-25T15:00:00Z',
    scheduled_end: '2026-11-25T17:00:00Z',
    windows: [
      {
        room: 'Living room',
        product: 'Roller shade',
        width_in: 35.5,
        drop_in: 60.125,
        mount: 'inside',
        colour: 'Linen',
      },
    ],
    ...over,
  };
}
