/** The landing host's view of tenants; the table itself is owned by @platform/tenancy. */
export { ensureDefaultTenant, findDefaultTenant, findTenantByDomain, type TenantRow } from '@platform/tenancy';
