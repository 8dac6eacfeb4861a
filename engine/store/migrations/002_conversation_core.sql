-- The rest of the conversation core: what the AI remembers between messages, actions and their
-- requests, sandbox fixtures, voice sessions, idempotency records and per-account limits.

ALTER TABLE accounts ADD COLUMN requests_per_minute_live integer;
ALTER TABLE accounts ADD COLUMN requests_per_minute_sandbox integer;

-- The AI's short memory of a conversation.
ALTER TABLE conversations ADD COLUMN unanswered_streak integer NOT NULL DEFAULT 0;
ALTER TABLE conversations ADD COLUMN last_reply_answered boolean NOT NULL DEFAULT false;
ALTER TABLE conversations ADD COLUMN awaiting_action jsonb;
ALTER TABLE conversations ADD COLUMN handover_count integer NOT NULL DEFAULT 0;
ALTER TABLE conversations ADD COLUMN resolved boolean;
ALTER TABLE conversations ADD COLUMN closed_at timestamptz;
ALTER TABLE conversations ADD COLUMN quality jsonb;

-- The actions an account lets the AI ask for.
CREATE TABLE actions (
  account_id text NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  description text NOT NULL,
  definition jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, name)
);

CREATE TABLE action_requests (
  id text PRIMARY KEY,
  conversation_id text NOT NULL REFERENCES conversations (id),
  action text NOT NULL,
  inputs jsonb NOT NULL,
  handled_by text,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  result jsonb,
  created_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX action_requests_by_conversation ON action_requests (conversation_id);

-- Sandbox only: results the engine gives for an action itself, instead of asking the caller.
CREATE TABLE sandbox_fixtures (
  account_id text NOT NULL REFERENCES accounts (id),
  action text NOT NULL,
  result jsonb NOT NULL,
  PRIMARY KEY (account_id, action)
);

CREATE TABLE voice_sessions (
  id text PRIMARY KEY,
  conversation_id text NOT NULL REFERENCES conversations (id),
  token_sha256 text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);

-- The first answer to each Idempotency-Key, per credential and route, kept 24 hours.
CREATE TABLE idempotency_keys (
  key_id text NOT NULL,
  idempotency_key text NOT NULL,
  route text NOT NULL,
  request_sha256 text NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'done')),
  status integer,
  -- The answer's JSON text as sent, so a replay is the same bytes.
  body text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (key_id, idempotency_key, route)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
ALTER TABLE turns ADD COLUMN answered boolean;
