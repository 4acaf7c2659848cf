/** Find-or-create helpers over the Erp port (partners, tags, UTM records) and the external-id lookup. */
import type { Domain, Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';

import { type ResolvedAddress, XMLID_MODULE } from './lead-mapping.js';
import type { PostalPlace } from './postal-address.js';

const NO_ACTIVE_TEST = { active_test: false };

/** The first match of `domain`, or a new record; a concurrent create of a unique name is re-read. */
export async function findOrCreate(
  erp: Erp,
  model: string,
  domain: Domain,
  values: Record<string, unknown>,
): Promise<number> {
  const found = await erp.search(model, domain, { limit: 1, order: 'id' });
  if (found[0]) return found[0];
  try {
    return await erp.create(model, values);
  } catch (e) {
    if (!(e instanceof AppError && e.code === 'ERP_REJECTED')) throw e;
    const again = await erp.search(model, domain, { limit: 1, order: 'id' });
    if (again[0]) return again[0];
    throw e;
  }
}

/** `=ilike` takes a LIKE pattern: `_` and `%` in an address must match themselves (backslash is the escape). */
const likeLiteral = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function findPartner(
  erp: Erp,
  c: { email: string | null; phone: string | null },
  values: Record<string, unknown>,
): Promise<number> {
  const domain: Domain = c.email ? [['email', '=ilike', likeLiteral(c.email)]] : [['phone', '=', c.phone]];
  return findOrCreate(erp, 'res.partner', domain, values);
}

export const findTag = (erp: Erp, name: string) => findOrCreate(erp, 'crm.tag', [['name', '=', name]], { name });

export async function findUtm(
  erp: Erp,
  model: 'utm.source' | 'utm.medium' | 'utm.campaign',
  name: string | undefined,
): Promise<number | false> {
  return name ? findOrCreate(erp, model, [['name', '=', name]], { name }) : false;
}

/** The record already delivered for this submission: by external id, else (after a lost reply) by marker. */
export async function findDelivered(
  erp: Erp,
  model: string,
  xmlName: string,
  marker: string,
  deep: boolean,
): Promise<number | undefined> {
  const ids = await erp.searchRead(
    'ir.model.data',
    [
      ['module', '=', XMLID_MODULE],
      ['name', '=', xmlName],
    ],
    { fields: ['res_id'], limit: 1 },
  );
  if (ids[0]) return Number(ids[0].res_id);
  if (!deep) return undefined;
  const byMarker = await erp.search(model, [['description', 'ilike', marker]], {
    limit: 1,
    order: 'id',
    context: NO_ACTIVE_TEST,
  });
  if (byMarker[0]) await linkExternalId(erp, model, xmlName, byMarker[0]);
  return byMarker[0];
}

export async function linkExternalId(erp: Erp, model: string, xmlName: string, resId: number): Promise<void> {
  await erp.create('ir.model.data', { module: XMLID_MODULE, name: xmlName, model, res_id: resId, noupdate: true });
}

/**
 * The ERP's country and state of a postal place (res.country by ISO code, res.country.state by code
 * or name within it). Looked up only, never created: a country or state the ERP lacks stays empty.
 */
export async function findAddress(erp: Erp, place: PostalPlace | undefined): Promise<ResolvedAddress | undefined> {
  if (!place) return undefined;
  const [countryId] = await erp.search('res.country', [['code', '=', place.countryCode]], { limit: 1 });
  if (!countryId) return { city: place.city, stateId: false, countryId: false };
  const byState: Domain | undefined = place.stateCode
    ? [['code', '=', place.stateCode]]
    : place.stateName
      ? [['name', '=ilike', likeLiteral(place.stateName)]]
      : undefined;
  const [stateId] = byState
    ? await erp.search('res.country.state', [['country_id', '=', countryId], ...byState], { limit: 1 })
    : [];
  return { city: place.city, stateId: stateId ?? false, countryId };
}
