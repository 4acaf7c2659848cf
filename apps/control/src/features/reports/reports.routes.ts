/**
 * The reports (docs/reports.md), for the office:
 * Days are the tenant's (its time zone); `branch` narrows every figure to that branch's ZIP codes.
 *   GET /reports/summary?from&to           → jobs done, quotes sent and won, revenue; this month against last
 *   GET /reports/funnel?from&to&group&part → lead → quote → won → paid by source, and the advanced figures
 *                                            (plan `advanced_reports`, else 403 PLAN_FEATURE_MISSING)
 * Either as CSV with `Accept: text/csv` or `?format=csv` (the funnel's `part`: funnel, technicians, products).
 */
import { FUNNEL_GROUPS } from '@platform/contracts/reports.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import { FUNNEL_PARTS, funnelCsv, summaryCsv } from './reports.csv.js';
import type { ReportsService } from './reports.service.js';

const day = z.iso.date({ error: 'must be a date (yyyy-mm-dd)' });
const MAX_DAYS = 1096;
const span = (q: { from?: string | undefined; to?: string | undefined }) =>
  !q.from ||
  !q.to ||
  (Date.parse(q.to) >= Date.parse(q.from) && Date.parse(q.to) - Date.parse(q.from) < MAX_DAYS * 86_400_000);
const rangeShape = {
  from: day.optional(),
  to: day.optional(),
  branch: z.uuid({ error: 'must be a branch id' }).optional(),
  format: z.enum(['json', 'csv'], { error: 'must be json or csv' }).optional(),
};
const spanError = { error: `must be on or after "from", at most ${MAX_DAYS} days after it`, path: ['to'] };
const summaryQuery = z.strictObject(rangeShape).refine(span, spanError);
const funnelQuery = z
  .strictObject({
    ...rangeShape,
    group: z.enum(FUNNEL_GROUPS, { error: `must be one of ${FUNNEL_GROUPS.join(', ')}` }).default('source'),
    part: z.enum(FUNNEL_PARTS, { error: `must be one of ${FUNNEL_PARTS.join(', ')}` }).default('funnel'),
  })
  .refine(span, spanError);

const wantsCsv = (format: string | undefined, req: FastifyRequest) =>
  format === 'csv' || (format === undefined && /\btext\/csv\b/.test(req.headers.accept ?? ''));
const sendCsv = (reply: FastifyReply, name: string, body: string) =>
  reply
    .header('content-disposition', `attachment; filename="${name}.csv"`)
    .header('cache-control', 'private, no-store')
    .type('text/csv; charset=utf-8')
    .send(body);

export function registerReportRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps & { reports: ReportsService },
): void {
  const common = {
    tags: ['reports'],
    security: 'bearer' as const,
    preHandler: [authenticate(deps), requireRole('owner', 'admin', 'office')],
  };
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/reports/summary',
    summary: 'Jobs done, quotes sent and won, revenue (minor units), this month against last; every plan',
    query: summaryQuery,
    responses: { '200': 'The summary (JSON, or CSV when asked)' },
    handler: async ({ query: q }, req, reply) => {
      const s = await deps.reports.summary(principalOf(req), q, deps.clock.now());
      return wantsCsv(q.format, req) ? sendCsv(reply, `summary-${s.from}-${s.to}`, summaryCsv(s)) : s;
    },
  });
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/reports/funnel',
    summary: 'Lead → quote → won → paid by source, average quote, lead to install, technicians, products',
    query: funnelQuery,
    responses: {
      '200': 'The funnel (JSON, or CSV of `part` when asked)',
      '403': 'PLAN_FEATURE_MISSING (advanced_reports)',
    },
    handler: async ({ query: q }, req, reply) => {
      const f = await deps.reports.funnel(principalOf(req), q, q.group, deps.clock.now());
      if (!wantsCsv(q.format, req)) return f;
      return sendCsv(reply, `${q.part}-${q.group}-${f.from}-${f.to}`, funnelCsv(f, q.part));
    },
  });
}
