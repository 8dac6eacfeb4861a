-- Monitors (/v1/monitors): what an account watches its conversations for, per account and
-- environment (a sandbox monitor watches sandbox conversations only, as the agent's settings do).
-- They run beside the requests (engine/monitors/worker.ts), never in them.
CREATE TABLE monitors (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  name text NOT NULL,
  keywords text[] NOT NULL DEFAULT '{}',
  pattern text,
  instruction text,
  scope text NOT NULL CHECK (scope IN ('ai_messages', 'customer_messages', 'all')),
  severity text NOT NULL CHECK (severity IN ('low', 'medium', 'high')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX monitors_by_account ON monitors (account_id, environment, created_at);

-- What a monitor found: at most one finding per monitor and message, so a pass run again (after a
-- restart, or by a second engine process) never finds the same thing twice. The excerpt is the
-- customer's or the AI's words: a forget blanks it (engine/customer-erasure.ts).
CREATE TABLE monitor_findings (
  seq bigserial NOT NULL UNIQUE,
  id text PRIMARY KEY,
  monitor_id text NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  conversation_id text NOT NULL REFERENCES conversations (id),
  turn_id text NOT NULL,
  role text NOT NULL,
  excerpt text NOT NULL,
  severity text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (monitor_id, turn_id)
);
CREATE INDEX monitor_findings_by_account ON monitor_findings (account_id, environment, seq);
CREATE INDEX monitor_findings_by_conversation ON monitor_findings (conversation_id, seq);

-- How far each conversation's turns were read by the monitors: within one conversation turns are
-- written under its lock, so their positions come in the order they commit and this cursor never
-- passes one that is not there yet.
CREATE TABLE monitor_cursors (
  conversation_id text PRIMARY KEY REFERENCES conversations (id),
  position bigint NOT NULL
);

-- Where the search for conversations with unread turns starts: it trails the newest turns by a
-- look-back (engine/store/monitor-scan.ts), so a turn whose transaction commits late is still found.
-- Turns written before monitors existed are never read.
CREATE TABLE monitor_scan (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  position bigint NOT NULL
);
INSERT INTO monitor_scan (position) SELECT COALESCE(max(position), 0) FROM turns;

-- Messages waiting for the LLM's yes or no on a monitor's instruction; each is claimed by one
-- engine process at a time until lease_until, and removed when answered.
CREATE TABLE monitor_checks (
  monitor_id text NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  turn_id text NOT NULL,
  account_id text NOT NULL REFERENCES accounts (id),
  conversation_id text NOT NULL REFERENCES conversations (id),
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (monitor_id, turn_id)
);
CREATE INDEX monitor_checks_due ON monitor_checks (created_at);
