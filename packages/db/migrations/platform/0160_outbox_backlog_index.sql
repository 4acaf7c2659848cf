-- Monitoring (/metrics of the control plane) reads the outbox backlog by topic and status at every
-- scrape. Done rows stay for OUTBOX_DONE_RETENTION_DAYS and can outnumber the backlog by far: this
-- partial index holds only rows not done, so that read stays proportional to the backlog.
CREATE INDEX IF NOT EXISTS outbox_backlog ON outbox (topic, status, created_at) WHERE status <> 'done';
