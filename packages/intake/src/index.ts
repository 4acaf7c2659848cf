export * from './submissions.repo.js';
export * from './idempotency-keys.repo.js';
