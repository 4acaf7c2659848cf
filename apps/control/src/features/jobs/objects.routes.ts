/**
 * `PUT|GET /objects/<key>?method=&expires=&sig=`: the embedded object store's presigned URLs (the
 * local driver; with S3 the URLs go to the bucket and this is not mounted). The URL is the only
 * credential: it names one key, one method and an expiry, HMAC-signed. Bodies are raw bytes (a photo
 * of at most 15 MiB, as the uploads allow); not part of the JSON API, so not in /openapi.json.
 */
import { AppError } from '@platform/kernel';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { EmbeddedObjects } from './job-objects.js';
import { UPLOAD_RULES } from './job-records.service.js';

const MAX_BYTES = Math.max(...Object.values(UPLOAD_RULES).map((r) => r.maxBytes));

function keyOf(objects: EmbeddedObjects, req: FastifyRequest, method: 'put' | 'get'): string {
  const url = new URL(req.url, 'http://objects.invalid');
  const key = objects.verifyPresigned(url);
  if (!key || url.searchParams.get('method') !== method)
    throw new AppError('UPLOAD_URL_INVALID', 'This link is not valid (altered, expired or for another use).');
  return key;
}

/** Photos and signatures show in an <img> with their own type; anything else is a download. */
const TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
const typeOf = (key: string) => TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

export function registerObjectRoutes(app: FastifyInstance, objects: EmbeddedObjects | undefined): void {
  if (!objects) return;
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    scope.put('/objects/*', { bodyLimit: MAX_BYTES }, async (req, reply) => {
      const key = keyOf(objects, req, 'put');
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (!body.length)
        throw new AppError('VALIDATION_FAILED', 'The upload is empty.', {
          fieldIssues: [{ field: '(body)', rule: 'required', message: 'Send the file as the request body.' }],
        });
      await objects.store.put(key, body, { contentType: String(req.headers['content-type'] ?? '') });
      return reply.code(200).header('cache-control', 'no-store').send();
    });
    scope.get('/objects/*', async (req, reply) => {
      const key = keyOf(objects, req, 'get');
      const stream = await objects.store.get(key).catch(() => {
        throw new AppError('NOT_FOUND', 'No such object.');
      });
      return reply.header('cache-control', 'private, no-store').type(typeOf(key)).send(stream);
    });
  });
}
