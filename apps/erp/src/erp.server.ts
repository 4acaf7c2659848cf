/**
 * Starts the embedded ERP: deps.ts composes the host (databases, start-up steps, the app); this
 * file only listens, and closes in order.
 */
import type { AddressInfo } from 'node:net';

import type { Db } from '@platform/db';
import type { EmbeddedErp } from '@platform/erp-embedded';
import type { FastifyBaseLogger } from 'fastify';

import { composeErpHost } from './deps.js';
import type { ErpConfig } from './erp.config.js';
import type { RestApiDeps } from './restapi.compose.js';

export interface StartErpOptions {
  /** The platform database, when the caller has it open (one process with the platform, PGlite). */
  platformDb?: Db;
}

export async function startErp(
  config: ErpConfig,
  logger?: FastifyBaseLogger,
  opts: StartErpOptions = {},
): Promise<{ url: string; erp: EmbeddedErp; restapi: RestApiDeps | undefined; db: Db; close(): Promise<void> }> {
  const host = await composeErpHost(config, {
    ...(logger ? { logger } : {}),
    ...(opts.platformDb ? { platformDb: opts.platformDb } : {}),
  });
  const { app } = host;
  try {
    await app.listen({ port: config.ERP_PORT, host: config.ERP_HOST });
  } catch (e) {
    await app.close();
    await host.closeDatabases();
    throw e;
  }
  const { port } = app.server.address() as AddressInfo;
  const hostname = config.ERP_HOST === '0.0.0.0' || config.ERP_HOST === '::' ? '127.0.0.1' : config.ERP_HOST;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostname}:${port}`,
    erp: host.erp,
    restapi: host.restapi,
    db: host.db,
    // Fastify's close stops accepting and lets in-flight requests finish before the db closes.
    close: () => (closing ??= app.close().then(() => host.closeDatabases())),
  };
}
