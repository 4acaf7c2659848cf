/**
 * Stock (docs/inventory.md), plan feature `inventory` (else 403 PLAN_FEATURE_MISSING):
 *   GET  /inventory/parts                     → {items} parts, on hand / reserved / available per location
 *   POST /inventory/parts                     → 201 a new part (vendor, vendor code, cost, reorder min/max)
 *   POST /inventory/parts/{id}/adjust         → {quantity, reason}: the counted quantity, applied
 *   POST /inventory/parts/{id}/receive        → {qty}: a receipt into stock; Idempotency-Key honoured
 *   GET  /inventory/reorder                   → {items} parts whose available stock is under the minimum
 *   POST /inventory/reorder/purchase-orders   → draft purchase orders, one per vendor
 *   GET|PUT /inventory/products/{code}/parts  → the parts a product needs per window
 *   POST /jobs/{id}/parts-used                → {parts:[{part_id, qty}]} consumed; Idempotency-Key honoured
 */
import { sendAnswer } from '@platform/http-kit';
import { idempotencyKeyOf } from '@platform/intake';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import { jobIdParams } from '../jobs/jobs.schemas.js';

const erpId = (what: string) =>
  z.coerce.number().int(`must be ${what}`).positive(`must be ${what}`).max(2_147_483_647, `must be ${what}`);
const quantity = (max = 100_000) => z.number().positive('must be more than 0').max(max);
const partId = z.object({ id: erpId('a part id') });
const productCode = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be a product code'),
});
const refused = { '403': 'PLAN_FEATURE_MISSING (inventory)' };

export function registerInventoryRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const office = [authenticate(deps), requireRole('owner', 'admin', 'office')];
  const common = { tags: ['inventory'], security: 'bearer' as const, preHandler: office };
  const s = () => deps.inventory.service;
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/inventory/parts',
    summary: 'Stocked parts: on hand, reserved and available per location, vendor, reorder point',
    // Technicians too: the field app picks the parts used on a job from this list.
    preHandler: [authenticate(deps)],
    responses: { '200': 'Parts', ...refused },
    handler: (_r, req) => s().parts(principalOf(req)),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/inventory/parts',
    summary: 'A new stocked part with its vendor, cost and reorder minimum and maximum',
    body: z
      .strictObject({
        name: z.string().trim().min(1, 'is required').max(120),
        code: productCode.shape.code.nullish(),
        supplier_id: erpId('a supplier id'),
        supplier_code: z.string().trim().max(60).nullish(),
        cost_minor: z.number().int('must be in minor units').min(0).max(100_000_000),
        reorder_min: z.number().min(0).max(100_000),
        reorder_max: z.number().min(0).max(100_000),
      })
      .refine((b) => b.reorder_max >= b.reorder_min, {
        path: ['reorder_max'],
        message: 'must not be less than reorder_min',
      }),
    responses: { '201': 'The part', ...refused },
    handler: async ({ body }, req, reply) => reply.code(201).send(await s().createPart(principalOf(req), body)),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/inventory/parts/:id/adjust',
    summary: 'Set the counted quantity on hand, with the reason (the only way stock is lowered by hand)',
    params: partId,
    body: z.strictObject({
      quantity: z.number().min(0, 'must not be negative').max(1_000_000),
      reason: z.string().trim().min(3, 'must say why (3 characters or more)').max(200),
    }),
    responses: { '200': 'The part', '404': 'NOT_FOUND', ...refused },
    handler: ({ params, body }, req) => s().adjust(principalOf(req), params.id, body),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/inventory/parts/:id/receive',
    summary: 'Receive parts into stock (a validated receipt; Idempotency-Key honoured)',
    params: partId,
    body: z.strictObject({ qty: quantity() }),
    responses: { '200': 'The part', '404': 'NOT_FOUND', ...refused },
    handler: async ({ params, body }, req, reply) =>
      sendAnswer(
        reply,
        await s().receive(principalOf(req), params.id, body, idempotencyKeyOf(req.headers['idempotency-key'])),
      ),
  });
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/inventory/reorder',
    summary: 'The reorder list: parts whose available stock is under their reorder minimum',
    responses: { '200': 'Parts to reorder, with the quantity back up to the maximum', ...refused },
    handler: (_r, req) => s().reorder(principalOf(req)),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/inventory/reorder/purchase-orders',
    summary: "Draft a purchase order to each vendor of the reorder list's parts (a draft already made is kept)",
    body: z.strictObject({ part_ids: z.array(erpId('a part id')).min(1).max(500).optional() }),
    responses: { '200': 'The purchase orders', ...refused },
    handler: ({ body }, req) => s().draftReorder(principalOf(req), body.part_ids),
  });
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/inventory/products/:code/parts',
    summary: 'The parts a product (blind type) needs per window',
    params: productCode,
    responses: { '200': 'The parts', ...refused },
    handler: ({ params }, req) => s().productParts(principalOf(req), params.code),
  });
  route(app, catalogue, {
    ...common,
    method: 'PUT',
    url: '/inventory/products/:code/parts',
    summary: "Set the parts a product needs per window (reserved when an order's windows are confirmed)",
    params: productCode,
    body: z.strictObject({
      parts: z.array(z.strictObject({ part_id: erpId('a part id'), qty_per_window: quantity(1000) })).max(50),
    }),
    responses: { '200': 'The parts', ...refused },
    handler: ({ params, body }, req) => s().setProductParts(principalOf(req), params.code, body.parts),
  });
  route(app, catalogue, {
    tags: ['inventory'],
    security: 'bearer',
    preHandler: [authenticate(deps)],
    method: 'POST',
    url: '/jobs/:id/parts-used',
    summary: 'Record the parts used on the job: consumed from stock once (Idempotency-Key honoured)',
    params: jobIdParams,
    body: z.strictObject({
      parts: z
        .array(z.strictObject({ part_id: erpId('a part id'), qty: quantity(10_000) }))
        .min(1)
        .max(50),
    }),
    responses: { '201': 'The parts consumed', '404': 'NOT_FOUND', '409': 'STOCK_INSUFFICIENT', ...refused },
    handler: async ({ params, body }, req, reply) =>
      sendAnswer(
        reply,
        await deps.inventory.usage.partsUsed(
          principalOf(req),
          params.id,
          body.parts,
          idempotencyKeyOf(req.headers['idempotency-key']),
        ),
      ),
  });
}
