/**
 * Which leads and jobs belong to which branch: the one whose ZIP codes hold the record's ZIP, else the
 * default branch (which also takes records with no ZIP). Pure: the branches in, an ERP domain out.
 */
import type { Domain } from '@platform/erp';

import type { BranchRow } from './branches.repo.js';

type Branch = Pick<BranchRow, 'id' | 'name' | 'zip_codes' | 'is_default'>;

/** The branch a ZIP belongs to (undefined when the tenant has no branches). */
export function branchOfZip(branches: readonly Branch[], zip: string | null | undefined): Branch | undefined {
  const z = (zip ?? '').trim();
  return (z && branches.find((b) => b.zip_codes.includes(z))) || branches.find((b) => b.is_default);
}

/** An ERP domain matching the records of any of `chosen` by `field` (e.g. `zip`), among all `branches`. */
export function branchDomain(branches: readonly Branch[], chosen: readonly Branch[], field: string): Domain {
  const zips = [...new Set(chosen.flatMap((b) => b.zip_codes))];
  const terms: Domain[] = [[[field, 'in', zips]]];
  if (chosen.some((b) => b.is_default)) {
    const others = branches.filter((b) => !b.is_default).flatMap((b) => b.zip_codes);
    terms.push([[field, '=', false]], [[field, 'not in', others]]);
  }
  // Odoo's prefix notation: n terms joined by n-1 '|'.
  return [...Array<string>(terms.length - 1).fill('|'), ...terms.flat()] as Domain;
}
