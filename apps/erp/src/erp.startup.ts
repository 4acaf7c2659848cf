/**
 * Start-up steps of the embedded ERP's own database, run once by deps.ts: the default ERP database
 * on first start, and the platform's API key (kept in DATA_DIR so the platform can authenticate).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Db } from '@platform/db';
import type { EmbeddedErp } from '@platform/erp-embedded';

import type { ErpConfig } from './erp.config.js';

export const PLATFORM_KEY_NAME = 'platform integration';
export const PLATFORM_KEY_FILE = 'erp-platform-api-key';
export const MASTER_PASSWORD_FILE = 'erp-master-password';

/**
 * The `db` service's master password: ERP_MASTER_PASSWORD, else one generated on first start and
 * kept 0600 in DATA_DIR (the control plane, sharing DATA_DIR in embedded mode, reads it there).
 */
export function masterPassword(config: Pick<ErpConfig, 'ERP_MASTER_PASSWORD' | 'DATA_DIR'>): string {
  if (config.ERP_MASTER_PASSWORD) return config.ERP_MASTER_PASSWORD;
  const file = join(config.DATA_DIR, MASTER_PASSWORD_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.DATA_DIR, { recursive: true });
  const pw = randomBytes(24).toString('base64url');
  // 'wx': two processes starting at once keep the first one's.
  try {
    writeFileSync(file, `${pw}\n`, { mode: 0o600, flag: 'wx' });
    return pw;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}

function writeSecret(path: string, value: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
}

/** Creates ERP_DB when missing; the generated admin password is printed once and kept 0600. */
export async function ensureDefaultDatabase(erp: EmbeddedErp, config: ErpConfig): Promise<void> {
  if (await erp.databaseExists(config.ERP_DB)) return;
  const { adminPassword } = await erp.createDatabase(config.ERP_DB, { adminPassword: config.ERP_ADMIN_PASSWORD });
  if (!config.ERP_ADMIN_PASSWORD) {
    const file = join(config.DATA_DIR, 'erp-admin-password');
    writeSecret(file, adminPassword);
    process.stdout.write(
      `ERP database "${config.ERP_DB}" created. Admin login: admin, password: ${adminPassword}\n` +
        `(shown once; also saved to ${file})\n`,
    );
  }
}

/**
 * Keeps `${DATA_DIR}/erp-platform-api-key` holding a live key "platform integration" of admin, so the
 * platform can authenticate in embedded mode. A key is only ever stored hashed, so when the file is
 * gone or its key was revoked the old keys of that name are revoked and a new one is written.
 */
export async function ensurePlatformApiKey(erp: EmbeddedErp, config: ErpConfig): Promise<void> {
  const file = join(config.DATA_DIR, PLATFORM_KEY_FILE);
  const current = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (current && (await erp.authenticate(config.ERP_DB, 'admin', current)) !== false) return;
  for (const k of await erp.listApiKeys(config.ERP_DB)) {
    if (k.name === PLATFORM_KEY_NAME && k.login === 'admin') await erp.revokeApiKey(config.ERP_DB, k.id);
  }
  const { key } = await erp.createApiKey(config.ERP_DB, 'admin', PLATFORM_KEY_NAME);
  writeSecret(file, key);
}

/**
 * Replicas starting together on one PostgreSQL take turns: otherwise both see no database and the
 * second createDatabase fails, or one revokes the platform key the other has just written.
 */
export async function oneAtATime(db: Db, fn: () => Promise<void>): Promise<void> {
  // A PGlite data directory belongs to one process, and its only session is busy during a transaction.
  if (db.engine !== 'pg') return fn();
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['erp:startup']);
    await fn();
  });
}
