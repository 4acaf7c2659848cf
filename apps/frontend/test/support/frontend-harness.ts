/** Starts the frontend on port 0 over a migrated test database with a default tenant, in front of a given control plane. */
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { ensureDefaultTenant } from '@platform/tenancy';

import { loadFrontendConfig } from '../../src/frontend.config.js';
import { type RunningFrontend, startFrontend } from '../../src/frontend.server.js';

export interface TestFrontend {
  url: string;
  db: TestDb;
  frontend: RunningFrontend;
  close(): Promise<void>;
}

export async function startTestFrontend(controlUrl: string, env: Record<string, string> = {}): Promise<TestFrontend> {
  const db = await createTestDb(process.env, { migrated: true });
  await migratePlatform(db.db);
  const tenant = await ensureDefaultTenant(db.db, 'acme', 'Acme Blinds');
  await db.db.query(
    `INSERT INTO tenant_settings (tenant_id, company_name, primary_color, phone, email) VALUES ($1, 'Acme Blinds', '#1f5f3a', '303-555-0100', 'office@acme.test') ON CONFLICT (tenant_id) DO NOTHING`,
    [tenant.id],
  );
  const frontend = await startFrontend(
    loadFrontendConfig({
      FRONTEND_PORT: '0',
      FRONTEND_HOST: '127.0.0.1',
      CONTROL_URL: controlUrl,
      LOG_LEVEL: 'silent',
      ...env,
    }),
    { db: db.db },
  );
  return {
    url: frontend.url,
    db,
    frontend,
    close: async () => {
      await frontend.close();
      await db.drop();
    },
  };
}
