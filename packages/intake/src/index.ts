export * from './submissions.repo.js';
export * from './idempotency-keys.repo.js';
export * from './idempotency.js';
export * from './accept-submission.js';
