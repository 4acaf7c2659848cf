export * from './outbox.repo.js';
export { PermanentFailure, RetryLater, backoffDelay } from './outbox.failures.js';
export {
  OutboxRelay,
  type OutboxBatchHandler,
  type OutboxBatchHandlers,
  type OutboxHandler,
  type OutboxHandlers,
  type RelayOptions,
  type RelayLogger,
} from './outbox.relay.js';
export { outboxBacklog, type OutboxBacklogRow } from './outbox.stats.js';
