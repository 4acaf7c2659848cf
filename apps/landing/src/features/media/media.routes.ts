/**
 * GET /media/{image_key} on a tenant's host: the tenant's own gallery images (docs/website.md). Only
 * keys of the requesting host's tenant are served (another tenant's key, the platform's host or an
 * unknown key is 404). A key is a content hash, so the bytes behind a URL never change: a year's
 * `immutable` caching is safe, and a new upload is a new URL.
 */
import { AppError } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';
import { readWebsiteImage } from '@platform/website';
import type { FastifyInstance } from 'fastify';

import type {} from '../tenancy/tenant-host.hook.js';

export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export function registerMediaRoutes(app: FastifyInstance, deps: { objects: ObjectStore }): void {
  app.get('/media/*', async (req, reply) => {
    const tenant = req.tenant;
    // The platform's own site has no gallery: its host answers like any other missing file.
    if (!tenant || tenant.isDefault) throw new AppError('NOT_FOUND', 'No such image.');
    const key = (req.params as { '*': string })['*'];
    const image = await readWebsiteImage(deps.objects, tenant.tenantId, key);
    return reply
      .header('content-type', 'image/webp')
      .header('cache-control', MEDIA_CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      .send(image);
  });
}
