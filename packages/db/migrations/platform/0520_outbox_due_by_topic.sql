-- The relay claims the oldest due rows of its topics. With this index a claim reads its batch in
-- order from each topic's due rows and stops at the batch size; before, it read every pending row
-- of the topic (outbox_backlog) and sorted them, so each claim cost grew with the backlog.
CREATE INDEX IF NOT EXISTS outbox_due_by_topic ON outbox (topic, next_attempt_at, id) WHERE status = 'pending';
