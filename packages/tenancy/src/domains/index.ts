export * from './tenant-domains.repo.js';
export * from './domain-checks.repo.js';
export { createCnameLookup, type CnameAnswer, type CnameLookup } from './cname-lookup.js';
