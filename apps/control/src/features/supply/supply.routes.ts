/**
 * Ordering from suppliers (docs/control-plane.md, "Supplier orders"), office roles:
 *   GET  /supply/suppliers                 → {items} vendors (res.partner with a supplier rank)
 *   POST /supply/suppliers                 → 201 the vendor
 *   GET  /supply/products/{code}           → the grid product's vendor, vendor code, cost, lead time
 *   PUT  /supply/products/{code}           → the same, saved (owner, admin)
 *   GET  /purchase-orders?state=open|late|received
 *   POST /purchase-orders/{id}/confirm     → the order, confirmed (again: the same answer)
 *   POST /purchase-orders/{id}/receive     → {lines:[{line_id, qty}]}; Idempotency-Key honoured
 */
import { PURCHASE_ORDER_LISTS } from '@platform/contracts/purchase-orders.js';
import { sendAnswer } from '@platform/http-kit';
import { idempotencyKeyOf } from '@platform/intake';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';

const erpId = (what: string) =>
  z.coerce.number().int(`must be ${what}`).positive(`must be ${what}`).max(2_147_483_647, `must be ${what}`);
const code = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be a product code'),
});
const poId = z.object({ id: erpId('a purchase order id') });

export function registerSupplyRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const office = [authenticate(deps), requireRole('owner', 'admin', 'office')];
  const managers = [authenticate(deps), requireRole('owner', 'admin')];
  const common = { tags: ['supply'], security: 'bearer' as const };
  const s = () => deps.supply.service;
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/supply/suppliers',
    summary: 'The vendors (ERP partners with a supplier rank), by name',
    preHandler: office,
    handler: async (_x, req) => s().suppliers(principalOf(req)),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/supply/suppliers',
    summary: 'Add a vendor (an ERP partner with supplier rank 1)',
    preHandler: managers,
    body: z.strictObject({
      name: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
      email: z
        .email({ error: 'must be an email address' })
        .max(254)
        .nullable()
        .optional()
        .transform((v) => v ?? null),
    }),
    handler: async ({ body }, req, reply) => reply.code(201).send(await s().addSupplier(principalOf(req), body)),
  });
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/supply/products/:code',
    summary: "A grid product's vendor, vendor code, cost (minor units) and lead time (days); nulls when unset",
    preHandler: office,
    params: code,
    handler: async ({ params }, req) => s().product(principalOf(req), params.code),
  });
  route(app, catalogue, {
    ...common,
    method: 'PUT',
    url: '/supply/products/:code',
    summary: "Set a grid product's vendor, vendor code, cost and lead time (its product.supplierinfo)",
    preHandler: managers,
    params: code,
    body: z.strictObject({
      supplier_id: erpId('a supplier id'),
      supplier_code: z
        .string()
        .trim()
        .max(64, 'must be at most 64 characters')
        .nullable()
        .optional()
        .transform((v) => v || null),
      cost_minor: z.number().int('must be whole minor units').min(0, 'must not be negative').max(100_000_000),
      lead_days: z.number().int('must be whole days').min(0, 'must not be negative').max(365, 'must be at most 365'),
    }),
    handler: async ({ params, body }, req) => s().setProduct(principalOf(req), params.code, body),
  });
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/purchase-orders',
    summary: 'Supplier orders: open, late (past the vendor lead time) or received (every line)',
    preHandler: office,
    query: z.object({
      state: z.enum(PURCHASE_ORDER_LISTS, { error: 'must be open, late or received' }).default('open'),
    }),
    handler: async ({ query }, req) => s().purchaseOrders(principalOf(req), query.state),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/purchase-orders/:id/confirm',
    summary: 'Confirm a draft supplier order (button_confirm; chat hears "PO Confirmation")',
    preHandler: office,
    params: poId,
    responses: { '200': 'The order', '404': 'NOT_FOUND', '409': 'PURCHASE_ORDER_STATE_CONFLICT' },
    handler: async ({ params }, req) => s().confirm(principalOf(req), params.id),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/purchase-orders/:id/receive',
    summary: 'Receive all or some lines of a confirmed supplier order (Idempotency-Key honoured)',
    preHandler: office,
    params: poId,
    body: z.strictObject({
      lines: z
        .array(
          z.strictObject({
            line_id: erpId('a purchase order line id'),
            qty: z.number().positive('must be more than 0').max(100_000),
          }),
        )
        .min(1, 'must name at least one line')
        .max(500),
    }),
    responses: { '200': 'The order', '409': 'PURCHASE_ORDER_STATE_CONFLICT', '422': 'RECEIVE_QTY_INVALID' },
    handler: async ({ params, body }, req, reply) =>
      sendAnswer(
        reply,
        await s().receive(principalOf(req), params.id, body, idempotencyKeyOf(req.headers['idempotency-key'])),
      ),
  });
}
