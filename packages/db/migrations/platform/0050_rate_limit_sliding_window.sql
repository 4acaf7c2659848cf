-- Sliding-window rate limits: "N per W seconds" holds for ANY W seconds, not per clock-aligned window
-- (a fixed window let 2N through across a boundary). Per bucket, the times of the requests accepted
-- within the last window; one row, updated atomically, so replicas share one exact limit.
-- Rows untouched for a whole window are pruned by the worker (docs/retention.md).
CREATE TABLE rate_limit_hits (
  bucket text PRIMARY KEY,
  window_s integer NOT NULL CHECK (window_s > 0),
  hits timestamptz[] NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX rate_limit_hits_updated ON rate_limit_hits (updated_at);

DROP TABLE rate_limit_windows;
