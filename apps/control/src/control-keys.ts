/**
 * The control plane's two keys kept beside its data in embedded mode: the ERP master password the
 * embedded ERP wrote, and the JWT signing key generated once.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { AppError } from '@platform/kernel';

import type { ControlConfig } from './control.config.js';

/** ERP_MASTER_PASSWORD, else the one the embedded ERP generated into DATA_DIR. */
export function erpMasterPassword(config: ControlConfig): string {
  if (config.ERP_MASTER_PASSWORD) return config.ERP_MASTER_PASSWORD;
  const file = join(config.DATA_DIR, 'erp-master-password');
  const pw = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (!pw)
    throw new AppError('ERP_UNAVAILABLE', 'No ERP_MASTER_PASSWORD and the embedded ERP has not written its own yet.');
  return pw;
}

/** CONTROL_JWT_SECRET, or (embedded mode) a key generated once and kept beside the data. */
export function jwtSecret(config: ControlConfig): string {
  if (config.CONTROL_JWT_SECRET) return config.CONTROL_JWT_SECRET;
  const file = join(config.DATA_DIR, 'control-jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.DATA_DIR, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  // 'wx': two processes starting at once must not each write their own key.
  try {
    writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}
