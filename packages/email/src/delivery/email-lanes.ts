/**
 * The worker's email lanes: one outbox relay per lane, each claiming only its own topic, so a
 * backlog of bulk mail never delays a password reset. They share one failover sender (and so one
 * circuit breaker per process). The worker also re-verifies sending domains on a timer.
 */
import { TOPIC_EMAIL_BULK, TOPIC_EMAIL_TRANSACTIONAL } from '@platform/contracts';
import type { Db } from '@platform/db';
import { type OutboxBatchHandlers, OutboxRelay, type RelayLogger, type RelayOptions } from '@platform/outbox';
import type { SecretBox } from '@platform/secrets';

import { sendingDomainsFrom } from '../admin/email-admin.compose.js';
import { recheckDomains, scheduleDomainChecks } from '../domains/domain-recheck.js';
import { composeEmail, type EmailServices } from '../email.compose.js';
import type { EmailConfig } from '../email.config.js';
import { deliveryStateOfClaimedRow } from './email-messages.repo.js';

export interface EmailLanes {
  services: EmailServices;
  transactional: OutboxRelay;
  bulk: OutboxRelay;
  /** Starts both lanes and, with a secret box, the sending-domain re-checks. */
  start(): void;
  wake(): void;
  close(): Promise<void>;
}

type RelayTuning = Pick<
  RelayOptions,
  'pollMs' | 'maxAttempts' | 'baseDelayMs' | 'maxDelayMs' | 'visibilityTimeoutMs' | 'sweepEveryMs'
>;

type LaneOptions = {
  config: EmailConfig;
  db: Db;
  logger: RelayLogger;
  workerId: string;
  relay?: RelayTuning;
  services?: EmailServices;
  box?: SecretBox;
};

/** Builds the lanes without starting them (the worker's composition root; `start()` runs them). */
export function createEmailLanes(o: LaneOptions): EmailLanes {
  const services = o.services ?? composeEmail(o.config, o.db, o.logger, o.box ? { box: o.box } : {});
  // A lane's batch is delivered together: its messages' states read in the claim, one write of those
  // sent; the next batch is claimed while this one sends.
  const lane = (name: string, batchHandlers: OutboxBatchHandlers, batchSize: number) =>
    new OutboxRelay({
      db: o.db,
      workerId: `${o.workerId}:email-${name}`,
      handlers: {},
      batchHandlers,
      prefetch: true,
      claimWith: deliveryStateOfClaimedRow,
      logger: o.logger,
      batchSize,
      ...o.relay,
    });
  const transactional = lane(
    'transactional',
    { [TOPIC_EMAIL_TRANSACTIONAL]: (rows) => services.delivery.deliverBatch(rows) },
    20,
  );
  const bulk = lane('bulk', { [TOPIC_EMAIL_BULK]: (rows) => services.delivery.deliverBatch(rows) }, 5);
  let checks: ReturnType<typeof scheduleDomainChecks> | undefined;
  return {
    services,
    transactional,
    bulk,
    start: () => {
      if (o.box && !checks)
        checks = scheduleDomainChecks(
          () => recheckDomains(o.db, sendingDomainsFrom(o.config, o.db, o.box!), o.logger),
          o.config.EMAIL_DOMAIN_CHECK_MS,
        );
      transactional.start();
      bulk.start();
    },
    wake: () => {
      transactional.wake();
      bulk.wake();
    },
    close: async () => {
      checks?.stop();
      await Promise.all([transactional.stop(), bulk.stop()]);
      await services.close();
    },
  };
}

export function startEmailLanes(o: LaneOptions & { start?: boolean }): EmailLanes {
  const lanes = createEmailLanes(o);
  if (o.start !== false) lanes.start();
  return lanes;
}
