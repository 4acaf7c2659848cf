/**
 * A tenant's website (docs/website.md, "Editing and publishing"); owners and admins only:
 *   GET  /api/tenants/{id}/website           → WebsiteEditorView (draft, published, history, catalogue)
 *   PUT  /api/tenants/{id}/website/draft     → the whole WebsiteContent saved as the draft → the view
 *   POST /api/tenants/{id}/website/publish   → the draft becomes the next version, live at once → the view
 *   POST /api/tenants/{id}/website/rollback  → {version}: that version's content published again → the view
 *   POST /api/tenants/{id}/website/preview   → {url, expires_at}: the draft on the tenant's host (15 minutes)
 *   POST /api/tenants/{id}/website/images    → raw PNG/JPEG/WebP body → {image_key, width, height} (WebP)
 *   GET  /api/tenants/{id}/website/tracking  → {meta_pixel_id, meta_capi_token_set}
 *   PUT  /api/tenants/{id}/website/tracking  → {meta_pixel_id, meta_capi_token?} (the token sealed)
 *   GET  /api/website-images/{tenant}/{name}  → a gallery image (WebP), public like the site it is on
 */
import type { Readable } from 'node:stream';

import { WEBSITE_LIMITS } from '@platform/contracts/website.js';
import { AppError } from '@platform/kernel';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue, uuidParam } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, requireRole } from '../auth/auth.guard.js';
import { rollbackSchema, trackingSchema, websiteContentSchema } from './website.schemas.js';
import type { ControlWebsite } from './website.service.js';

const base = '/api/tenants/:id/website';
// A full draft (40 FAQ entries of 4,000 characters, escaped) is far above the host's default limit.
const DRAFT_BYTES = 1024 * 1024;

const tooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', 'The image is larger than 5 MiB.', {
    fieldIssues: [{ field: 'file', rule: 'max_bytes', message: 'must be at most 5 MiB' }],
  });

/** Reads the body up to the limit; beyond it answers 413 at once and leaves the rest unread. */
function readLimited(payload: Readable, done: (err: Error | null, body?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  payload.on('data', (c: Buffer) => {
    if (over) return;
    size += c.length;
    if (size > WEBSITE_LIMITS.imageBytes) {
      over = true;
      return done(tooLarge());
    }
    chunks.push(c);
  });
  payload.on('end', () => !over && done(null, Buffer.concat(chunks)));
  payload.on('error', (e) => !over && done(e));
}

export function registerWebsiteRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps & { website: ControlWebsite },
): void {
  const svc = deps.website;
  const actor = (req: FastifyRequest, id: string) => ({ principal: assertOwnTenant(req, id), ip: req.ip });
  const common = {
    tags: ['website'],
    security: 'bearer' as const,
    preHandler: [authenticate(deps), requireRole('owner', 'admin')],
    params: uuidParam('id'),
  };
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: base,
    summary: "The Website editor's view: the draft, the live version, earlier versions and the catalogue",
    handler: async ({ params }, req) => svc.view(actor(req, params.id).principal.tenantId),
  });
  route(app, catalogue, {
    ...common,
    method: 'PUT',
    url: `${base}/draft`,
    summary: 'Save the draft (plain text within WEBSITE_LIMITS; nothing is published)',
    body: websiteContentSchema,
    bodyLimit: DRAFT_BYTES,
    responses: { '200': 'Saved: the editor view', '422': 'VALIDATION_FAILED' },
    handler: async ({ params, body }, req) => svc.saveDraft(actor(req, params.id), body),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: `${base}/publish`,
    summary: 'Publish the draft as the next version: every landing process serves it at once',
    responses: { '200': 'Published: the editor view' },
    handler: async ({ params }, req) => svc.publish(actor(req, params.id)),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: `${base}/rollback`,
    summary: "Publish an earlier version's content again (as a new version; it becomes the draft too)",
    body: rollbackSchema,
    responses: { '200': 'Rolled back: the editor view', '404': 'NOT_FOUND (no such version)' },
    handler: async ({ params, body }, req) => svc.rollback(actor(req, params.id), body.version),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: `${base}/preview`,
    summary: "A short-lived link where the landing host renders the draft on the tenant's host (noindex)",
    responses: { '200': '{url, expires_at}' },
    handler: async ({ params }, req) => svc.previewLink(actor(req, params.id).principal.tenantId),
  });
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: `${base}/tracking`,
    summary: "The site's Meta pixel id and whether a Conversions API token is stored (never the token)",
    handler: async ({ params }, req) => svc.tracking(actor(req, params.id).principal.tenantId),
  });
  route(app, catalogue, {
    ...common,
    method: 'PUT',
    url: `${base}/tracking`,
    summary: 'Set the Meta pixel id and the Conversions API token (sealed; absent keeps it, null removes it)',
    body: trackingSchema,
    responses: { '200': 'Saved', '422': 'VALIDATION_FAILED' },
    handler: async ({ params, body }, req) => svc.setTracking(actor(req, params.id), body),
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/api/website-images/:tenant/:name',
    summary: "A tenant's gallery image (WebP), public like its site; the editor's thumbnails",
    tags: ['website'],
    security: 'none',
    params: z.object({
      tenant: z.uuid({ error: 'must be a UUID' }),
      name: z.string().regex(/^[0-9a-f]{32}\.webp$/, 'must name a gallery image'),
    }),
    responses: { '200': 'The image' },
    handler: async ({ params }, _req, reply) => {
      const stream = await svc.image(params.tenant, `${params.tenant}/website/${params.name}`);
      // The name is the content's hash: a new upload is a new URL, so this one never changes.
      return reply.header('cache-control', 'public, max-age=31536000, immutable').type('image/webp').send(stream);
    },
  });
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (req, payload, done) => {
      if (Number(req.headers['content-length'] ?? 0) > WEBSITE_LIMITS.imageBytes) {
        payload.resume();
        return done(tooLarge());
      }
      readLimited(payload, done);
    });
    route(scope, catalogue, {
      ...common,
      method: 'POST',
      url: `${base}/images`,
      summary: 'Upload a gallery image (PNG, JPEG or WebP, at most 5 MiB): re-encoded to WebP, at most 1600 px wide',
      responses: { '201': '{image_key, width, height}', '413': 'PAYLOAD_TOO_LARGE', '415': 'UNSUPPORTED_MEDIA_TYPE' },
      handler: async ({ params }, req, reply) => {
        const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        return reply.code(201).send(await svc.uploadImage(actor(req, params.id), bytes));
      },
    });
  });
}
