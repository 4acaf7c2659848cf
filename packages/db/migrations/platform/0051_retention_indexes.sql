-- The worker prunes by age (docs/retention.md): idempotency keys after 24 h, webhook receipts and
-- done outbox rows after their retention. These indexes keep each pruning pass a range scan.
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
CREATE INDEX webhook_receipts_received ON webhook_receipts (received_at);
CREATE INDEX outbox_done ON outbox (done_at) WHERE status = 'done';
