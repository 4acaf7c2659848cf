export * from './tenants.repo.js';
export * from './plans.js';
