export * from './outbox-topics.js';
export * from './outbox-payloads.js';
