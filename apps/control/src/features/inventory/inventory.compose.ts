/**
 * The stock feature (docs/inventory.md): the office's service, the parts used on jobs and the relay
 * that reserves confirmed orders' parts. Built here so the composition root stays within its size.
 */
import type { Db } from '@platform/db';
import type { Clock } from '@platform/kernel';
import type { OutboxRelay, RelayLogger } from '@platform/outbox';

import type { AuditLog } from '../audit/audit-log.js';
import type { JobsFeature } from '../jobs/jobs.compose.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { InventoryService } from './inventory.service.js';
import { inventoryReserveRelay } from './inventory-reserve.job.js';
import { InventoryUsage } from './inventory-usage.service.js';

export interface InventoryFeature {
  service: InventoryService;
  usage: InventoryUsage;
  relay(logger: RelayLogger): OutboxRelay;
}

/** What ControlDeps gets from this feature (deps.ts extends it). */
export interface InventoryDeps {
  inventory: InventoryFeature;
}

export function composeInventory(p: {
  db: Db;
  erps: TenantErps;
  plans: PlanLimits;
  audit: AuditLog;
  clock: Clock;
  jobs: JobsFeature;
  currencyOf(tenantId: string): Promise<string>;
}): InventoryFeature {
  const service = new InventoryService(p);
  const usage = new InventoryUsage({ ...p, jobs: p.jobs.reader, inventory: service });
  return { service, usage, relay: (logger) => inventoryReserveRelay(p.db, usage, logger) };
}
