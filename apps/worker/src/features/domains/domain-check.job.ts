/**
 * The worker's DNS check of custom domains: one pass every DOMAIN_CHECK_POLL_MS (off at 0), through a
 * resolver on DNS_SERVERS (docs/control-plane.md, "Domains and resolution").
 */
import type { Db } from '@platform/db';
import { Periodic } from '@platform/kernel';
import { createCnameLookup } from '@platform/tenancy';

import type { WorkerConfig } from '../../config.js';
import { type CheckPassResult, DomainCheckService } from './domain-check.service.js';

type Logger = { info(o: object, msg: string): void; error(o: object, msg: string): void };

export interface DomainCheckJob {
  service: DomainCheckService;
  runOnce(now?: Date): Promise<CheckPassResult>;
  start(): void;
  stop(): Promise<void>;
}

export function createDomainCheckJob(
  config: WorkerConfig,
  db: Db,
  logger: Logger,
  onSeen?: (d: { domain: string; tenantId: string }) => Promise<void>,
): DomainCheckJob | undefined {
  if (config.DOMAIN_CHECK_POLL_MS === 0) return undefined;
  const service = new DomainCheckService(
    db,
    createCnameLookup(config.DNS_SERVERS ? { servers: config.DNS_SERVERS } : {}),
    {
      tenantsHost: config.TENANTS_HOST,
      deadlineMs: config.DOMAIN_VERIFY_DEADLINE_H * 3_600_000,
      recheckMs: config.DOMAIN_RECHECK_S * 1000,
      batchSize: 20,
      // Two tries of a 3 s timeout at most, with room to spare.
      leaseMs: 60_000,
    },
    onSeen,
  );
  const periodic = new Periodic({
    everyMs: config.DOMAIN_CHECK_POLL_MS,
    firstAfterMs: 0,
    pass: async () => {
      const r = await service.runOnce();
      if (r.seen.length + r.failed.length > 0) logger.info(r, 'domains: DNS check pass');
    },
    onError: (err) => logger.error({ err }, 'domains: DNS check pass failed'),
  });
  return {
    service,
    runOnce: (now) => service.runOnce(now),
    start() {
      periodic.start();
    },
    stop: () => periodic.stop(),
  };
}
