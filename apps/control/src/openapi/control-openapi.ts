/**
 * The control plane's OpenAPI description without running it (the docs site renders it at build
 * time): the real app is built through the composition root on a database handle that refuses every
 * query (routes only touch the database when a request arrives), and asked for /openapi.json.
 */
import { closedError, type Db } from '@platform/db';

import { loadControlConfig } from '../control.config.js';
import { buildControlApp } from '../control.http-app.js';
import { composeControl } from '../deps.js';

const noDatabase: Db = {
  engine: 'pg',
  query: () => Promise.reject(closedError()),
  exec: () => Promise.reject(closedError()),
  transaction: () => Promise.reject(closedError()),
  close: async () => undefined,
};

export async function buildControlPlaneOpenApi(serverUrl: string): Promise<Record<string, unknown>> {
  const config = loadControlConfig({ CONTROL_JWT_SECRET: 'describing-the-api-only-'.padEnd(40, '-') });
  const app = await buildControlApp(composeControl(config, noDatabase), {
    logger: false,
    bodyLimit: 1024,
    trustProxy: false,
  });
  try {
    const doc = (await app.inject({ url: '/openapi.json' })).json<Record<string, unknown>>();
    return { ...doc, servers: [{ url: serverUrl }] };
  } finally {
    await app.close();
  }
}
