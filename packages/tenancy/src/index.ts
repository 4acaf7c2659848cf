export * from './tenants.repo.js';
export * from './tenant-settings.repo.js';
export * from './erp/erp-routing.repo.js';
export * from './erp/tenant-erps.js';
export * from './erp/erp-databases.js';
export * from './subdomain.js';
export * from './tenant-lifecycle.repo.js';
