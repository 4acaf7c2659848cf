/**
 * Which tenant an integration request is for. Provider URLs carry the tenant's slug as a path
 * segment (`/acct/webhook/<slug>`, `/sms/webhook/<slug>/sms`) and admin pages a `?tenant=<slug>`;
 * without either, the request is the host's own (default) tenant's, as before tenants had URLs of
 * their own. A segment naming no active tenant resolves to nothing: the route refuses it and writes
 * nothing. The segment only chooses whose keys check the signature, so a notice signed with A's key
 * sent to B's URL is refused like any forgery.
 */
import type { FastifyRequest } from 'fastify';

import type { IntegrationsDeps, IntegrationTenant } from './integrations.types.js';

/** Slugs as the control plane makes them; anything else cannot name a tenant. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The tenant named by `slug`, or the host's own tenant when no slug is given. */
export async function integrationTenant(
  deps: Pick<IntegrationsDeps, 'tenantId' | 'tenantBySlug'>,
  slug: string | undefined,
): Promise<IntegrationTenant | undefined> {
  if (slug === undefined || slug === '') return { id: deps.tenantId, slug: '', isDefault: true };
  if (!SLUG.test(slug)) return undefined;
  return deps.tenantBySlug(slug);
}

/** The `tenant` path parameter of a segmented route. */
export const tenantParam = (req: FastifyRequest): string | undefined =>
  (req.params as Record<string, string | undefined>)['tenant'];

/** The `?tenant=` of an admin page. */
export const tenantQuery = (req: FastifyRequest): string | undefined =>
  (req.query as Record<string, string | undefined>)['tenant'];
