/**
 * A branch's own price grids (docs/control-plane.md, "Branches"), for the office:
 *   GET    /sales/branches/{branch_id}/price-grids                 → the branch's own grids
 *   PUT    /sales/branches/{branch_id}/price-grids/{product_code}  → create or replace one (multi_location)
 *   DELETE /sales/branches/{branch_id}/price-grids/{product_code}  → back to the tenant's grid (multi_location)
 * Another tenant's branch, or no such branch, is 404.
 */
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { principalOf } from '../auth/auth.guard.js';
import { priceGridBody, productCode } from './price-grid.schemas.js';

const branchParam = z.object({ branch_id: z.uuid({ error: 'must be a branch id' }) });
const gridParam = branchParam.extend({ product_code: productCode });
const missing = () => {
  throw new Error('branch price grids are not composed');
};

export function registerBranchGridRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps,
  base: { tags: string[]; security: 'bearer'; preHandler: preHandlerAsyncHookHandler[] },
): void {
  const grids = () => deps.sales.grids.branch ?? missing();
  const refused = { '403': 'PLAN_FEATURE_MISSING (multi_location)', '404': 'No such branch or grid' };
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/sales/branches/:branch_id/price-grids',
    summary: "A branch's own price grids (products without one are priced from the tenant's grid)",
    params: branchParam,
    responses: { '200': 'The grids', '404': 'No such branch' },
    handler: async ({ params }, req) => ({ items: await grids().list(principalOf(req), params.branch_id) }),
  });
  route(app, catalogue, {
    ...base,
    method: 'PUT',
    url: '/sales/branches/:branch_id/price-grids/:product_code',
    summary: "Create or replace a branch's own grid for a product (multi_location)",
    params: gridParam,
    body: priceGridBody,
    responses: { '200': 'The grid', ...refused },
    handler: async ({ params, body }, req) =>
      grids().put(principalOf(req), params.branch_id, params.product_code, body, req.ip),
  });
  route(app, catalogue, {
    ...base,
    method: 'DELETE',
    url: '/sales/branches/:branch_id/price-grids/:product_code',
    summary: "Remove a branch's own grid: the product is priced from the tenant's grid again (multi_location)",
    params: gridParam,
    responses: { '204': 'Removed', ...refused },
    handler: async ({ params }, req, reply) => {
      await grids().remove(principalOf(req), params.branch_id, params.product_code, req.ip);
      return reply.status(204).send();
    },
  });
}
