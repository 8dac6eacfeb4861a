-- Reports that arrive later (POST /v1/reports): each is a durable job row that a worker of any
-- engine process claims with a lease, gathers off the request path, and settles with its file.
-- The file lives here too (text: CSV or JSON), so every engine sharing the store can serve it.
CREATE TABLE reports (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  kind text NOT NULL,
  format text NOT NULL CHECK (format IN ('csv', 'json')),
  period_from timestamptz NOT NULL,
  period_to timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'running', 'ready', 'failed')),
  rows integer,
  content text,
  failure_reason text,
  -- Claimed by one engine process at a time until this time; a process that died leaves it to run out.
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  finished_at timestamptz,
  expires_at timestamptz NOT NULL
);
CREATE INDEX reports_by_account ON reports (account_id, environment, created_at);
CREATE INDEX reports_waiting ON reports (created_at) WHERE status IN ('pending', 'running');
CREATE INDEX reports_by_expiry ON reports (expires_at);
