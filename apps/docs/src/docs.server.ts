/**
 * The docs site's host (DOCS_PORT, 8002): the built site behind HTTP Basic sign-in. The site is built
 * once (`npm run docs:build`); a start that finds no build makes one first (about half a minute to a
 * minute on two cores) and later starts serve it as is.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import fastifyStatic from '@fastify/static';
import { createMetricsRegistry, GRACEFUL_FASTIFY_OPTIONS, registerMetrics } from '@platform/http-kit';
import Fastify, { type FastifyBaseLogger } from 'fastify';

import { buildDocsSite, DEFAULT_DIST } from './docs.build.js';
import type { DocsConfig } from './docs.config.js';

/** DOCS_PASSWORD, or the generated one in DATA_DIR/docs-password (created 0600 on first start, announced once). */
export function docsPassword(c: DocsConfig, announce: (msg: string) => void): string {
  if (c.DOCS_PASSWORD) return c.DOCS_PASSWORD;
  const file = join(c.DATA_DIR, 'docs-password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(c.DATA_DIR, { recursive: true });
  const pw = randomBytes(18).toString('base64url');
  writeFileSync(file, `${pw}\n`, { mode: 0o600 });
  // As the ERP admin password: printed once on the console (not the log), kept in the file.
  announce(
    `docs site sign-in: user ${c.DOCS_USER}, password: ${pw}\n(shown once; also saved to ${file}; set DOCS_PASSWORD to choose one)`,
  );
  return pw;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export async function startDocs(
  c: DocsConfig,
  logger?: FastifyBaseLogger,
  opts: { build?: typeof buildDocsSite } = {},
) {
  if (c.DOCS === 'off') return undefined;
  const dist = c.DOCS_DIST ?? DEFAULT_DIST;
  if (!existsSync(join(dist, 'index.html'))) {
    process.stdout.write('docs site: no build yet, building it once (npm run docs:build)…\n');
    const { ms } = await (opts.build ?? buildDocsSite)({ outDir: dist });
    process.stdout.write(`docs site: built in ${(ms / 1000).toFixed(1)} s\n`);
  }
  const app = Fastify({ ...GRACEFUL_FASTIFY_OPTIONS, ...(logger ? { loggerInstance: logger } : { logger: false }) });
  if (c.DOCS_AUTH === 'basic') {
    // Compare digests so the comparison takes the same time whatever the lengths.
    const want = digest(`${c.DOCS_USER}:${docsPassword(c, (m) => process.stdout.write(`${m}\n`))}`);
    app.addHook('onRequest', (req, reply, done) => {
      // /metrics has its own guard (METRICS_TOKEN or loopback only), so Prometheus needs no docs password.
      if (req.url === '/health' || req.url === '/metrics') return done();
      const h = req.headers.authorization ?? '';
      const given = h.startsWith('Basic ') ? Buffer.from(h.slice(6), 'base64').toString('utf8') : '';
      if (given && timingSafeEqual(digest(given), want)) return done();
      reply
        .code(401)
        .header('www-authenticate', 'Basic realm="Platform docs", charset="UTF-8"')
        .type('text/plain')
        .send('sign-in required\n');
    });
  }
  registerMetrics(app, { registry: createMetricsRegistry('docs'), service: 'docs', token: c.METRICS_TOKEN });
  app.get('/health', async () => ({ status: 'ok' }));
  await app.register(fastifyStatic, { root: dist, extensions: ['html'], cacheControl: true, maxAge: '5m' });
  await app.listen({ port: c.DOCS_PORT, host: c.DOCS_HOST });
  const { port } = app.server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${c.DOCS_HOST === '0.0.0.0' ? '127.0.0.1' : c.DOCS_HOST}:${port}`,
    app,
    close: () => (closing ??= app.close()),
  };
}
