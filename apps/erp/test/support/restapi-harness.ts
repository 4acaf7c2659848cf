/**
 * Test harness of the REST API: one scratch database (PGlite, or PostgreSQL with TEST_DATABASE_URL)
 * holding the platform tables and an embedded ERP database `rest` (admin password `admin-pw`), the
 * in-process Erp adapter with a platform API key, and the ERP app with the REST API mounted.
 */
import type { AddressInfo } from 'node:net';

import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import type { Erp } from '@platform/erp';
import { EmbeddedErp } from '@platform/erp-embedded';
import { createEmbeddedErpAdapter } from '@platform/erp-embedded/embedded-erp.adapter.js';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

import { composeErpApp } from '../../src/deps.js';
import { ensureDefaultTenant } from '../../src/features/tenancy/default-tenant.repo.js';
import { composeRestApi, type RestApiDeps, type RestApiOptions } from '../../src/restapi.compose.js';

export const ERP_DB = 'rest';
export const ADMIN_PASSWORD = 'admin-pw';

export interface RestHarness {
  t: TestDb;
  embedded: EmbeddedErp;
  erp: Erp;
  deps: RestApiDeps;
  app: FastifyInstance;
  tenantId: string;
  /** Listens on 127.0.0.1 (for clients that need real HTTP) and returns the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function startRestHarness(
  opts: Partial<Pick<RestApiOptions, 'rateLimit' | 'pageSizes' | 'ttl' | 'publicUrl' | 'loginLimit'>> & {
    logger?: FastifyBaseLogger;
  } = {},
): Promise<RestHarness> {
  const t = await createTestDb(process.env, { migrated: true });
  try {
    await migratePlatform(t.db);
    const embedded = new EmbeddedErp(t.db);
    await embedded.createDatabase(ERP_DB, { adminPassword: ADMIN_PASSWORD });
    const { key } = await embedded.createApiKey(ERP_DB, 'admin', 'platform integration');
    const tenantId = await ensureDefaultTenant(t.db, 'default');
    const erp = createEmbeddedErpAdapter(embedded, { db: ERP_DB, login: 'admin', secret: key });
    const deps = composeRestApi({
      db: t.db,
      tenantId,
      erp,
      verifyLogin: async (login, password) => (await embedded.authenticate(ERP_DB, login, password)) !== false,
      // Many consent logins from 127.0.0.1 in one file: only the login-throttle test wants the real limit.
      loginLimit: { max: 1000, windowSeconds: 60 },
      ...opts,
    });
    const app = composeErpApp({ erp: embedded, restapi: deps, ...(opts.logger ? { logger: opts.logger } : {}) });
    return {
      t,
      embedded,
      erp,
      deps,
      app,
      tenantId,
      async listen() {
        await app.listen({ port: 0, host: '127.0.0.1' });
        return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      },
      async close() {
        await app.close();
        await t.drop();
      },
    };
  } catch (e) {
    await t.drop();
    throw e;
  }
}

/** A live API key acting for `login` with these scopes. */
export async function apiKey(h: RestHarness, scope: string, login = 'admin'): Promise<{ key: string; id: number }> {
  const { key, info } = await h.deps.keys.create({ login, description: `test ${scope}`, scope });
  return { key, id: info.id };
}

/**
 * Calls one admin API (`/restapi/1.0/admin/<area>`) on the app `app()` answers (set once beforeAll
 * has run), with an API key or, without one, anonymously.
 */
export const adminApiCaller =
  (app: () => FastifyInstance, area: string) =>
  (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, key?: string, payload?: unknown) =>
    app().inject({
      method,
      url: `/restapi/1.0/admin/${area}${path}`,
      headers: key ? { 'x-api-key': key } : {},
      ...(payload ? { payload: payload as object } : {}),
    });
