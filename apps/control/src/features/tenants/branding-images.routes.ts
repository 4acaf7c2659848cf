/**
 * `PUT /api/tenants/{id}/branding/{kind}`: owners and admins upload the logo or favicon as the raw
 * request body (any content type: the bytes are checked, not the header), at most 2 MiB (413
 * naming `file`). `GET /api/branding/{tenant}/{name}`: the stored PNG, public like the pages it is on.
 */
import type { Readable } from 'node:stream';

import { BRANDING_IMAGE_NAME, BRANDING_UPLOAD_MAX_BYTES } from '@platform/contracts/branding.js';
import { AppError } from '@platform/kernel';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, requireRole } from '../auth/auth.guard.js';

const tooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', 'The image is larger than 2 MiB.', {
    fieldIssues: [
      {
        field: 'file',
        rule: 'max_bytes',
        message: 'must be at most 2 MiB (it is re-encoded anyway: a smaller export is as good)',
      },
    ],
  });

/** Reads the body up to the limit; beyond it answers 413 at once and drains the rest unread. */
function readLimited(payload: Readable, done: (err: Error | null, body?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  payload.on('data', (c: Buffer) => {
    if (over) return;
    size += c.length;
    if (size > BRANDING_UPLOAD_MAX_BYTES) {
      over = true;
      return done(tooLarge());
    }
    chunks.push(c);
  });
  payload.on('end', () => {
    if (!over) done(null, Buffer.concat(chunks));
  });
  payload.on('error', (e) => {
    if (!over) done(e);
  });
}

export function registerBrandingImageRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (req, payload, done) => {
      if (Number(req.headers['content-length'] ?? 0) > BRANDING_UPLOAD_MAX_BYTES) {
        payload.resume();
        return done(tooLarge());
      }
      readLimited(payload, done);
    });
    route(scope, catalogue, {
      method: 'PUT',
      url: '/api/tenants/:id/branding/:kind',
      summary:
        'Upload the logo or favicon (PNG, JPEG or WebP, at most 2 MiB; re-encoded to PNG); needs custom_branding',
      tags: ['tenants'],
      security: 'bearer',
      preHandler: [authenticate(deps), requireRole('owner', 'admin')],
      params: z.object({
        id: z.uuid({ error: 'must be a UUID' }),
        kind: z.enum(['logo', 'favicon'], 'must be logo or favicon'),
      }),
      responses: { '200': 'The URL the pages load the image from, now the logo_url or favicon_url setting' },
      handler: async ({ params }, req) => {
        const p = assertOwnTenant(req, params.id);
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        return deps.brandingImages.upload(params.id, params.kind, body, { userId: p.userId, ip: req.ip });
      },
    });
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/api/branding/:tenant/:name',
    summary: "A tenant's uploaded logo or favicon (PNG)",
    tags: ['tenants'],
    security: 'none',
    params: z.object({
      tenant: z.uuid({ error: 'must be a UUID' }),
      name: z.string().regex(BRANDING_IMAGE_NAME, 'must name a logo or favicon'),
    }),
    responses: { '200': 'The image' },
    handler: async ({ params }, _req, reply) => {
      const stream = await deps.brandingImages.image(params.tenant, params.name);
      // The name is the content's hash: a new upload is a new URL, so this one never changes.
      return reply.header('cache-control', 'public, max-age=31536000, immutable').type('image/png').send(stream);
    },
  });
}
