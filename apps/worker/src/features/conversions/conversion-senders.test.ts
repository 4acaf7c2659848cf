/**
 * The worker's Lead events per tenant (the real handler from buildHandlers): tenant A's event goes to
 * the Conversions API with A's own pixel and token; B, without its own, sends nothing even though the
 * platform's META_* are set; the default tenant (the platform's own site) uses the platform's.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type ConversionPayload, TOPIC_CONVERSION } from '@platform/contracts';
import { createTestDb, migratePlatform, type TestDb, withTenant } from '@platform/db';
import { createLogger } from '@platform/http-kit';
import { LocalCapiReceiver, type RunningLocalCapiReceiver, startLocalCapiReceiver } from '@platform/providers/local';
import { setWebsiteTracking } from '@platform/website';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadWorkerConfig, type WorkerConfig } from '../../config.js';
import { buildHandlers } from '../../deps.js';
import { workerTenantErps } from '../../erp-connections.js';
import { secretBoxFrom } from '../../secrets.js';

const A_PIXEL = '111111111111';
const A_TOKEN = 'alpha-own-capi-token';
const PLATFORM_PIXEL = '999999999999';
const PLATFORM_TOKEN = 'platform-capi-token';

let t: TestDb;
let dataDir: string;
let config: WorkerConfig;
let graph: RunningLocalCapiReceiver;
let alphaGraph: LocalCapiReceiver;
let platformGraph: LocalCapiReceiver;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  dataDir = mkdtempSync(join(tmpdir(), 'worker-capi-'));
  // One Graph endpoint; it accepts A's token for A's pixel only, and the platform's for its own.
  alphaGraph = new LocalCapiReceiver({ accessToken: A_TOKEN, pixelIds: [A_PIXEL] });
  platformGraph = new LocalCapiReceiver({ accessToken: PLATFORM_TOKEN, pixelIds: [PLATFORM_PIXEL] });
  graph = await startLocalCapiReceiver({ accessToken: A_TOKEN, receiver: routeByPixel(alphaGraph, platformGraph) });
  config = loadWorkerConfig({
    ERP_URL: 'http://127.0.0.1:9',
    DATA_DIR: dataDir,
    SECRETS_KEYRING: `k1:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: 'silent',
    META_PIXEL_ID: PLATFORM_PIXEL,
    META_ACCESS_TOKEN: PLATFORM_TOKEN,
    META_GRAPH_URL: graph.url,
  });
  const rows = await t.db.query<{ id: string; slug: string }>(
    `INSERT INTO tenants (slug, name, is_default) VALUES ('platform', 'Platform', true), ('alpha', 'Alpha', false),
       ('beta', 'Beta', false) RETURNING id, slug`,
  );
  for (const r of rows.rows) ids[r.slug] = r.id;
  const box = secretBoxFrom(config);
  await withTenant(t.db, ids.alpha!, (tx) =>
    setWebsiteTracking(tx, box, ids.alpha!, { meta_pixel_id: A_PIXEL, meta_capi_token: A_TOKEN }),
  );
  // B shows a browser pixel but set no Conversions API token: no server-side event.
  await withTenant(t.db, ids.beta!, (tx) => setWebsiteTracking(tx, box, ids.beta!, { meta_pixel_id: '222222222222' }));
}, 60_000);
afterAll(async () => {
  await graph?.close();
  await t?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Both receivers behind one Graph URL: a request goes to the platform's only when it names its pixel. */
function routeByPixel(alpha: LocalCapiReceiver, platform: LocalCapiReceiver): LocalCapiReceiver {
  const router: Pick<LocalCapiReceiver, 'handle'> = {
    handle: (input) => (input.path.includes(`/${PLATFORM_PIXEL}/`) ? platform : alpha).handle(input),
  };
  // The server only calls handle().
  return router as LocalCapiReceiver;
}

const lead = (eventId: string): ConversionPayload => ({
  eventId,
  eventTime: Math.floor(Date.now() / 1000),
  eventSourceUrl: 'https://alpha.tenants.test/',
  user: { email: 'lead@example.com', clientIpAddress: '203.0.113.7', clientUserAgent: 'Mozilla/5.0 Test' },
});

async function deliver(tenantId: string, eventId: string): Promise<unknown> {
  const handlers = buildHandlers(config, t.db, createLogger('silent'), workerTenantErps(config, t.db), () => {});
  return handlers[TOPIC_CONVERSION]!({
    id: 1,
    tenant_id: tenantId,
    topic: TOPIC_CONVERSION,
    payload: lead(eventId),
  } as never);
}

const sentIds = (r: LocalCapiReceiver, pixel: string) =>
  r.requests.filter((q) => q.pixelId === pixel).flatMap((q) => q.events.map((e) => e.event_id));

describe("a tenant's Lead events go with its own Conversions API credentials", () => {
  it("sends A's event with A's pixel and token", async () => {
    await deliver(ids.alpha!, 'evt-alpha-1');
    expect(sentIds(alphaGraph, A_PIXEL)).toEqual(['evt-alpha-1']);
    expect(sentIds(platformGraph, PLATFORM_PIXEL)).not.toContain('evt-alpha-1');
  });

  it("sends nothing for B, which set no token, even with the platform's credentials configured", async () => {
    expect(await deliver(ids.beta!, 'evt-beta-1')).toEqual({ skipped: 'no_credentials' });
    expect(alphaGraph.events.map((e) => e.event_id)).not.toContain('evt-beta-1');
    expect(platformGraph.events.map((e) => e.event_id)).not.toContain('evt-beta-1');
  });

  it("sends the platform's own site's event with the platform's META_* credentials", async () => {
    await deliver(ids.platform!, 'evt-platform-1');
    expect(sentIds(platformGraph, PLATFORM_PIXEL)).toEqual(['evt-platform-1']);
  });
});
