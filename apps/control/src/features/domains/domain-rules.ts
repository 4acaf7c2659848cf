/**
 * Which names a tenant may add as a custom domain: a well-formed host name (lower case, IDNA) that is
 * not one of the platform's own (its public hosts and their subdomains, the tenants host and every
 * name under it, loopback names, RESERVED_DOMAINS). A refusal names the rule it broke.
 */
import { AppError } from '@platform/kernel';
import { isSameOrSubdomain, normaliseHost, parseDomainName } from '@platform/tenancy';

export interface ReservedNames {
  tenantsHost: string;
  platformHosts: string[];
}

function invalid(rule: string, message: string): AppError {
  return new AppError('DOMAIN_INVALID', `domain ${message}`, { fieldIssues: [{ field: 'domain', rule, message }] });
}

/** The stored form of a custom domain a tenant asks for, or DOMAIN_INVALID naming the rule. */
export function customDomainName(input: string, reserved: ReservedNames): string {
  const parsed = parseDomainName(input);
  if ('rule' in parsed) throw invalid(parsed.rule, parsed.message);
  const { domain } = parsed;
  const tenantsHost = normaliseHost(reserved.tenantsHost);
  if (isSameOrSubdomain(domain, tenantsHost))
    throw invalid(
      'tenants_host',
      `must not be the tenants host ${tenantsHost} or a name under it (your platform subdomain already is one)`,
    );
  if (isSameOrSubdomain(domain, 'localhost') || domain.endsWith('.local'))
    throw invalid('reserved', 'must be a public host name, not a local one');
  for (const host of reserved.platformHosts.map(normaliseHost).filter(Boolean))
    if (isSameOrSubdomain(domain, host)) throw invalid('reserved', `must not be the platform's own host ${host}`);
  return domain;
}
