/** Builds the office-user email API's service for one tenant from the host's configuration. */
import type { Db } from '@platform/db';
import { createPostmarkDomains } from '@platform/providers';
import type { SecretBox } from '@platform/secrets';

import { createDnsLookup } from '../domains/dns.port.js';
import { SendingDomainService } from '../domains/sending-domains.service.js';
import type { EmailConfig } from '../email.config.js';
import { EmailOutboxService } from '../email-outbox.service.js';
import { SuppressionService } from '../suppression/suppression.service.js';
import { EmailAdminService } from './email-admin.service.js';

export function sendingDomainsFrom(c: EmailConfig, db: Db, box: SecretBox): SendingDomainService {
  const servers = c.EMAIL_DNS_SERVERS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return new SendingDomainService(
    db,
    box,
    { limit: c.EMAIL_DOMAIN_LIMIT, spfInclude: c.EMAIL_SPF_INCLUDE, returnPathTarget: c.EMAIL_RETURN_PATH_TARGET },
    createDnsLookup(servers),
    c.POSTMARK_ACCOUNT_TOKEN
      ? createPostmarkDomains({
          accountToken: c.POSTMARK_ACCOUNT_TOKEN,
          baseUrl: c.POSTMARK_API_URL,
          timeoutMs: c.EMAIL_TIMEOUT_MS,
        })
      : undefined,
  );
}

export function composeEmailAdmin(c: EmailConfig, db: Db, box: SecretBox, tenantId: string): EmailAdminService {
  return new EmailAdminService(
    db,
    tenantId,
    new SuppressionService(db),
    sendingDomainsFrom(c, db, box),
    new EmailOutboxService(db, { domain: c.EMAIL_PLATFORM_DOMAIN, fromName: c.EMAIL_PLATFORM_FROM_NAME }),
  );
}
