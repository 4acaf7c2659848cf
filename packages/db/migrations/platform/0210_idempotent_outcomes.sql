-- Stored idempotent answers keep the write's domain outcome ('created' or 'updated'), not an HTTP
-- status: services answer outcomes and the route maps them (docs/architecture.md "One idempotency
-- path"). Rows stored before this migration keep their status_code and still replay (201 reads as
-- 'created', anything else as 'updated'); new rows leave status_code empty.
ALTER TABLE idempotency_keys ADD COLUMN outcome text CHECK (outcome IN ('created', 'updated'));
ALTER TABLE idempotency_keys ALTER COLUMN status_code DROP NOT NULL;
ALTER TABLE job_requests ADD COLUMN outcome text CHECK (outcome IN ('created', 'updated'));
