export * from './tenants.repo.js';
export * from './domain-stats.repo.js';
export * from './resolver/index.js';
export * from './domains/index.js';
export * from './tenancy.config.js';
