export * from './tenants.repo.js';
