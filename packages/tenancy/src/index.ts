export * from './tenants.repo.js';
export * from './domain-stats.repo.js';
