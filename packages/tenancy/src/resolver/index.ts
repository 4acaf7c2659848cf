export { isSameOrSubdomain, normaliseHost, parseDomainName, type DomainRule } from './host-name.js';
export { type ResolvedTenant } from './resolver.repo.js';
export { TENANCY_CHANNEL, TenantHostResolver, type TenantHostResolverOptions } from './tenant-host-resolver.js';
