export * from './outbox-topics.js';
