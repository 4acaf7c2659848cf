/**
 * Test kit of the control plane: a migrated test database, the app built through the real
 * composition root (inject(), no port), and helpers that make tenants and members and mint access
 * tokens for them. Used by every control-plane test.
 */
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import type { FastifyInstance } from 'fastify';

import { loadControlConfig } from '../control.config.js';
import { buildControlApp } from '../control.http-app.js';
import { composeControl, type ComposeControlOptions, type ControlDeps } from '../deps.js';
import { issueAccessToken } from '../features/auth/access-token.js';
import type { Principal, Role } from '../features/auth/principal.js';

export const TEST_JWT_SECRET = 'test-secret-of-the-control-plane-0123456789';

export interface ControlKit {
  t: TestDb;
  app: FastifyInstance;
  deps: ControlDeps;
  /** A tenant row (active, the given plan) with its owner; returns ids and an owner token. */
  tenant(slug: string, plan?: string): Promise<{ id: string; slug: string; owner: Principal; token: string }>;
  /** Adds a member of `role` to a tenant and returns their principal and token. */
  member(tenantId: string, role: Role, email?: string): Promise<{ principal: Principal; token: string }>;
  tokenFor(p: Principal, ttlSeconds?: number): Promise<string>;
  close(): Promise<void>;
}

export async function startControlKit(
  env: Record<string, string> = {},
  opts: ComposeControlOptions = {},
): Promise<ControlKit> {
  const t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  const config = loadControlConfig({ CONTROL_JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: '/nonexistent', ...env });
  const deps = composeControl(config, t.db, opts);
  const app = await buildControlApp(deps, { logger: false, bodyLimit: config.BODY_LIMIT_BYTES, trustProxy: false });
  const tokenFor = (p: Principal, ttl = 300) => issueAccessToken(deps.tokenKeys, p, ttl);
  let n = 0;
  const member = async (tenantId: string, role: Role, email = `${role}${++n}@${tenantId.slice(0, 8)}.test`) => {
    const { userId } = await t.db.transaction((q) =>
      deps.members.ensureMember(q, tenantId, { email, role, password: 'correct horse battery' }),
    );
    const principal: Principal = { userId, tenantId, role, email };
    return { principal, token: await tokenFor(principal) };
  };
  return {
    t,
    app,
    deps,
    tokenFor,
    member,
    async tenant(slug, plan = 'free') {
      const r = await t.db.query<{ id: string }>(
        `INSERT INTO tenants (slug, name, plan, status) VALUES ($1, $2, $3, 'active') RETURNING id`,
        [slug, `Tenant ${slug}`, plan],
      );
      const id = r.rows[0]!.id;
      const owner = await member(id, 'owner', `owner@${slug}.test`);
      return { id, slug, owner: owner.principal, token: owner.token };
    },
    async close() {
      await app.close();
      await t.drop();
    },
  };
}
