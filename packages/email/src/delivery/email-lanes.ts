/**
 * The worker's email lanes: one outbox relay per lane, each claiming only its own topic, so a
 * backlog of bulk mail never delays a password reset. They share one failover sender (and so one
 * circuit breaker per process). The worker also re-verifies sending domains on a timer.
 */
import type { Db } from '@platform/db';
import { OutboxRelay, type RelayLogger, type RelayOptions } from '@platform/outbox';
import { TOPIC_EMAIL_BULK, TOPIC_EMAIL_TRANSACTIONAL } from '@platform/contracts';
import type { SecretBox } from '@platform/secrets';
import type { EmailConfig } from '../email.config.js';
import { composeEmail, type EmailServices } from '../email.compose.js';
import { sendingDomainsFrom } from '../admin/email-admin.compose.js';
import { recheckDomains, scheduleDomainChecks } from '../domains/domain-recheck.js';

export interface EmailLanes {
  services: EmailServices;
  transactional: OutboxRelay;
  bulk: OutboxRelay;
  wake(): void;
  close(): Promise<void>;
}

type RelayTuning = Pick<RelayOptions, 'pollMs' | 'maxAttempts' | 'baseDelayMs' | 'maxDelayMs'>;

export function startEmailLanes(o: { config: EmailConfig; db: Db; logger: RelayLogger; workerId: string; relay?: RelayTuning; services?: EmailServices; box?: SecretBox; start?: boolean }): EmailLanes {
  const services = o.services ?? composeEmail(o.config, o.db, o.logger, o.box ? { box: o.box } : {});
  const lane = (name: string, topic: string, batchSize: number) =>
    new OutboxRelay({
      db: o.db,
      workerId: `${o.workerId}:email-${name}`,
      handlers: { [topic]: (row) => services.delivery.deliver(row) },
      logger: o.logger,
      batchSize,
      ...o.relay,
    });
  const transactional = lane('transactional', TOPIC_EMAIL_TRANSACTIONAL, 10);
  const bulk = lane('bulk', TOPIC_EMAIL_BULK, 5);
  const checks = o.start !== false && o.box ? scheduleDomainChecks(() => recheckDomains(o.db, sendingDomainsFrom(o.config, o.db, o.box!), o.logger), o.config.EMAIL_DOMAIN_CHECK_MS) : undefined;
  if (o.start !== false) {
    transactional.start();
    bulk.start();
  }
  return {
    services,
    transactional,
    bulk,
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
