/**
 * The DKIM key for an outgoing message: the sender's verified tenant domain's key, opened from its
 * sealed form once and cached per tenant and domain. Mail from the platform's domain is signed by
 * the provider (or not at all on a bare relay).
 */
import type { Queryable } from '@platform/db';
import type { DkimKey, EmailMessage } from '@platform/providers';
import type { SecretBox } from '@platform/secrets';
import { getTenantSettings } from '@platform/tenancy';

import { dkimAad } from './sending-domains.service.js';

export function dkimKeys(db: Queryable, box: SecretBox): (m: EmailMessage) => Promise<DkimKey | undefined> {
  const cache = new Map<string, DkimKey>();
  return async (m) => {
    const fromDomain = m.from.address.split('@')[1]?.toLowerCase();
    if (!fromDomain) return undefined;
    const id = `${m.tenantId}:${fromDomain}`;
    const hit = cache.get(id);
    if (hit) return hit;
    const d = (await getTenantSettings(db, m.tenantId))?.email_settings.domain;
    if (!d || d.name !== fromDomain || d.status !== 'verified' || !d.dkim_private_key_sealed) return undefined;
    const key = {
      domainName: d.name,
      keySelector: d.dkim_selector,
      privateKey: box.open(d.dkim_private_key_sealed, dkimAad(m.tenantId, d.name)),
    };
    cache.set(id, key);
    return key;
  };
}
