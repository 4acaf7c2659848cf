/**
 * The provider contact of an ERP partner, found once and remembered (accounting_contacts):
 * 1. a link recorded before;
 * 2. a contact carrying our ContactNumber `erp-partner-<id>`;
 * 3. exactly one contact with the partner's exact name (the provider keeps names unique), without a
 *    ContactNumber, whose email is empty or the partner's — a customer entered at the provider before
 *    the sync existed;
 * 4. else a new contact, created with an Idempotency-Key derived from the partner, so a retry after
 *    a lost reply cannot create a second one.
 * A namesake whose ContactNumber is another record's is another customer (two John Smiths): this one
 * is created as "John Smith (#<partner id>)", as the provider's unique names require. Anything else
 * (the same name without a number but another email, several such) is ambiguous: the caller shows it
 * to the office instead of retrying forever.
 */
import { createHash } from 'node:crypto';

import type { Db } from '@platform/db';
import type { AccountingApi, ContactInput } from '@platform/providers';

import type { AccountingRow } from '../settings/settings.repo.js';
import { findContactLink, insertContactLink } from './accounting.repo.js';
import type { AccountingCalls } from './accounting-calls.js';

export type ContactResolution =
  { contactId: string; matchedBy: 'link' | 'contact_number' | 'name' | 'created' } | { ambiguous: string };

const sameEmail = (a: string | undefined, b: string | undefined) =>
  !a || !b || a.trim().toLowerCase() === b.trim().toLowerCase();

/** Idempotency-Key of a create: the ERP record, the operation and a digest of the body (≤128 chars). */
export function idempotencyKey(tenantId: string, erpDb: string, record: string, op: string, body: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 22);
  return `erp:${tenantId}:${erpDb}:${record}:${op}:${digest}`.slice(0, 128);
}

export class AccountingContacts {
  constructor(
    private readonly db: Db,
    private readonly api: AccountingApi,
    private readonly calls: AccountingCalls,
  ) {}

  async resolve(
    tenantId: string,
    row: AccountingRow,
    erpDb: string,
    partnerId: number,
    input: ContactInput,
  ): Promise<ContactResolution> {
    const org = row.provider_tenant_id ?? '';
    const link = await findContactLink(this.db, tenantId, erpDb, partnerId, org);
    if (link) return { contactId: link.provider_contact_id, matchedBy: 'link' };
    const remember = async (
      contactId: string,
      matchedBy: 'contact_number' | 'name' | 'created',
    ): Promise<ContactResolution> => {
      await insertContactLink(this.db, tenantId, erpDb, partnerId, org, {
        provider_contact_id: contactId,
        matched_by: matchedBy,
      });
      return { contactId, matchedBy };
    };
    const byNumber = await this.calls.call(row, 'find contact', (auth) =>
      this.api.findContacts(auth, { contactNumber: input.contactNumber }),
    );
    if (byNumber.length === 1) return remember(byNumber[0]!.contactId, 'contact_number');
    if (byNumber.length > 1)
      return { ambiguous: `${byNumber.length} contacts at the provider carry the number ${input.contactNumber}` };
    const byName = await this.calls.call(row, 'find contact', (auth) =>
      this.api.findContacts(auth, { name: input.name }),
    );
    // Another worker may have created our contact between the two look-ups: it carries our number.
    const ours = byName.filter((c) => c.contactNumber === input.contactNumber);
    if (ours.length === 1) return remember(ours[0]!.contactId, 'contact_number');
    // A contact carrying another ContactNumber belongs to another record: never take it over.
    const matching = byName.filter((c) => c.contactNumber === undefined && sameEmail(c.email, input.email));
    if (byName.length === 1 && matching.length === 1) return remember(matching[0]!.contactId, 'name');
    // Every namesake carries another record's ContactNumber: they are other customers. The provider
    // keeps names unique, so this one gets a distinguishing name (its ERP partner number).
    const namesakesAreOthers = byName.length > 0 && byName.every((c) => c.contactNumber !== undefined);
    if (namesakesAreOthers) input = { ...input, name: `${input.name} (#${partnerId})` };
    else if (byName.length > 0) {
      return {
        ambiguous: `The customer "${input.name}" exists at the provider ${byName.length === 1 ? `with another email (${byName[0]!.email})` : `${byName.length} times`}: set the contact number ${input.contactNumber} on the right contact there, then replay the job.`,
      };
    }
    const key = idempotencyKey(tenantId, erpDb, `res.partner:${partnerId}`, 'create-contact', input);
    const created = await this.calls.call(row, 'create contact', (auth) => this.api.createContact(auth, input, key));
    return remember(created.contactId, 'created');
  }
}
