/**
 * The tenant's letterhead for its documents, from its company settings: name, contact, main colour,
 * currency, time zone and its uploaded logo read from the object store. A logo given as an outside
 * URL is left out: the server does not fetch addresses a tenant typed (no requests to arbitrary hosts).
 */
import { buffer } from 'node:stream/consumers';

import {
  BRANDING_IMAGE_NAME,
  brandingImagePath,
  DEFAULT_CURRENCY,
  DEFAULT_TIME_ZONE,
} from '@platform/contracts/branding.js';
import type { Queryable } from '@platform/db';
import type { ObjectStore } from '@platform/storage';
import { findTenant, getTenantSettings } from '@platform/tenancy';

import type { DocumentBrand } from './pdf-layout.js';

const HEX = /^#[0-9a-f]{6}$/i;
const DEFAULT_COLOUR = '#1f3a5f';

export async function documentBrand(tx: Queryable, objects: ObjectStore, tenantId: string): Promise<DocumentBrand> {
  const s = await getTenantSettings(tx, tenantId);
  const name = s?.company_name || (await findTenant(tx, tenantId))?.name || '';
  const prefix = brandingImagePath(tenantId, '');
  const file = s?.logo_url?.startsWith(prefix) ? decodeURIComponent(s.logo_url.slice(prefix.length)) : '';
  const logo = BRANDING_IMAGE_NAME.test(file)
    ? await objects
        .get(`${tenantId}/branding/${file}`)
        .then((st) => buffer(st))
        .catch(() => null)
    : null;
  return {
    name,
    logo,
    primary: s?.primary_color && HEX.test(s.primary_color) ? s.primary_color : DEFAULT_COLOUR,
    contact: [s?.address, s?.phone, s?.email].filter((x): x is string => Boolean(x)),
    currency: s?.currency ?? DEFAULT_CURRENCY,
    timeZone: s?.time_zone ?? DEFAULT_TIME_ZONE,
  };
}
