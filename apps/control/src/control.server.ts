/**
 * Starts the control plane: platform database (migrated when it owns it), app, listen. Used by
 * `npm run start:control` (main.ts) and by the single-process platform (apps/platform).
 */
import { hostname } from 'node:os';

import { parseTrustProxy, platformHost, type PlatformHostOptions, startHttpService } from '@platform/http-kit';
import { newId, Periodic } from '@platform/kernel';
import type { FastifyInstance } from 'fastify';

import type { ControlConfig } from './control.config.js';
import { buildControlApp } from './control.http-app.js';
import { composeControl, type ControlDeps } from './deps.js';
import { RECONCILE_AFTER_MS } from './features/invoicing/invoice-reconcile.js';
import { noChargeBilling } from './features/plans/billing.port.js';

export interface RunningControl {
  url: string;
  app: FastifyInstance;
  deps: ControlDeps;
  close(): Promise<void>;
}

export type StartControlOptions = PlatformHostOptions;

/** Hourly: a series' horizon is months long, so an hour's delay costs nothing. */
const RECURRING_EVERY_MS = 3_600_000;
/** Customer messages due (docs/messages.md): "on my way" should reach the customer within seconds. */
const MESSAGES_EVERY_MS = 5_000;
/** A lost payments webhook is found within this long (the provider retries for days before giving up). */
const DEPOSIT_RECONCILE_EVERY_MS = 900_000;

export async function startControl(config: ControlConfig, opts: StartControlOptions = {}): Promise<RunningControl> {
  const { logger, ...platform } = platformHost('control', config, opts);
  return startHttpService({
    ...platform,
    host: config.CONTROL_HOST,
    port: config.CONTROL_PORT,
    build: async (db) => {
      const deps = composeControl(config, db, { billing: noChargeBilling((f, m) => logger.info(f, m)) });
      const app = await buildControlApp(deps, {
        logger,
        bodyLimit: config.BODY_LIMIT_BYTES,
        trustProxy: parseTrustProxy(config.TRUST_PROXY),
      });
      // Recurring jobs: occurrences within each series' horizon become jobs (series-generator.ts).
      const recurring = new Periodic({
        everyMs: RECURRING_EVERY_MS,
        firstAfterMs: 60_000,
        pass: () => deps.recurring.generator.runAll((err, id) => logger.error({ err, series: id }, 'recurring jobs')),
        onError: (err) => logger.error({ err }, 'recurring jobs pass'),
      });
      recurring.start();
      // Customer messages: confirmations, reminders, "on my way"… (messages/message-sender.ts).
      const messages = new Periodic({
        everyMs: MESSAGES_EVERY_MS,
        firstAfterMs: MESSAGES_EVERY_MS,
        pass: () => deps.messages.sender.runDue((err, id) => logger.error({ err, tenant_id: id }, 'customer messages')),
        onError: (err) => logger.error({ err }, 'customer messages pass'),
      });
      messages.start();
      // The paid deposit's ERP job runs here, where its deposit row lives (docs/payments.md).
      const deposits = deps.payments.relay(logger, `control:${hostname()}:${process.pid}:${newId().slice(0, 8)}`);
      deposits.start();
      const reconcile = new Periodic({
        everyMs: DEPOSIT_RECONCILE_EVERY_MS,
        firstAfterMs: 60_000,
        pass: () =>
          deps.payments.reconciler.runAll((err, tenant) =>
            logger.error({ err, tenant_id: tenant }, 'deposit reconcile'),
          ),
        onError: (err) => logger.error({ err }, 'deposit reconcile pass'),
      });
      reconcile.start();
      // Completed jobs of companies that invoice automatically, and card refunds to mirror in the ERP.
      const invoicing = deps.invoicing.relay(logger);
      invoicing.start();
      // A confirmed order's supplier orders are drafted here (supply/supply-draft.job.ts).
      const supplyDrafts = deps.supply.draftJob.relay(logger);
      supplyDrafts.start();
      // ...and their parts reserved (inventory/inventory-reserve.job.ts).
      const partsReserved = deps.inventory.relay(logger);
      partsReserved.start();
      // Invoice card payments whose webhook never came (invoicing/invoice-reconcile.ts).
      const invoiceChecks = new Periodic({
        everyMs: RECONCILE_AFTER_MS,
        firstAfterMs: 60_000,
        pass: () =>
          deps.invoicing.reconciler.runOnce((err, id) => logger.error({ err, session: id }, 'invoice checkout')),
        onError: (err) => logger.error({ err }, 'invoice checkouts pass'),
      });
      invoiceChecks.start();
      const stop = async () => {
        await Promise.all(
          [recurring, reconcile, deposits, invoicing, invoiceChecks, supplyDrafts, messages, partsReserved].map((s) =>
            s.stop(),
          ),
        );
      };
      return { app, deps, stop };
    },
    listening: ({ deps }, { url }) => {
      deps.embeddedObjects?.listeningOn(url);
      if (!deps.signup.localCaptcha) return;
      logger.warn(
        'sign-up bot check: no CAPTCHA_SECRET_KEY, so the LOCAL siteverify stand-in is in use (embedded mode only)',
      );
    },
  });
}
