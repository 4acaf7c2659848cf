/**
 * What a visitor's ZIP code says about the address: a US ZIP (12345 or ZIP+4) gives the city, the
 * state and the country, a Canadian postal code (its first three characters) the province and the
 * country, from the `zipcodes` package (US Census / GeoNames data). Anything else gives nothing.
 */
import zipcodes from 'zipcodes';

export interface PostalPlace {
  /** The postal code as the ERP stores it (ZIP+4 kept as typed, trimmed). */
  zip: string;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: 'US' | 'CA';
  /** ISO 3166-2 subdivision code without the country prefix (US: `CO`), when known. */
  stateCode: string | null;
  /** Subdivision name, when the code is not known (Canadian provinces). */
  stateName: string | null;
}

const US_ZIP = /^(\d{5})(?:-?\d{4})?$/;
const CA_POSTAL = /^([A-Za-z]\d[A-Za-z])\s?\d[A-Za-z]\d$/;

export function placeOfZip(raw: string | null | undefined): PostalPlace | undefined {
  const zip = raw?.trim();
  if (!zip) return undefined;
  const us = US_ZIP.exec(zip);
  if (us) {
    const p = zipcodes.lookup(us[1]!);
    if (!p || p.country !== 'US') return undefined;
    return { zip, city: p.city || null, countryCode: 'US', stateCode: p.state || null, stateName: null };
  }
  const ca = CA_POSTAL.exec(zip);
  if (ca) {
    const p = zipcodes.lookup(ca[1]!.toUpperCase());
    if (!p || p.country !== 'Canada') return undefined;
    return { zip: zip.toUpperCase(), city: null, countryCode: 'CA', stateCode: null, stateName: p.state || null };
  }
  return undefined;
}
