export * from './outbox.repo.js';
export { OutboxRelay, PermanentFailure, backoffDelay, type OutboxHandler, type RelayOptions, type RelayLogger } from './outbox.relay.js';
