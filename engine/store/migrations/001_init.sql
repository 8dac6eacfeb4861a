-- The engine's tables. Every row of customer data carries its account and environment, and every
-- read is scoped by both: a sandbox key sees only sandbox data, a live key only live data.

CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  secret_sha256 text NOT NULL UNIQUE,
  prefix text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

-- One row per account and environment; its lock orders the feed (see engine/store/events.ts).
CREATE TABLE feeds (
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  last_seq bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, environment)
);

CREATE TABLE conversations (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  customer_ref text NOT NULL,
  state text NOT NULL CHECK (state IN ('ai', 'human', 'closed')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX conversations_by_customer ON conversations (account_id, environment, customer_ref);

CREATE TABLE turns (
  position bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  conversation_id text NOT NULL REFERENCES conversations (id),
  role text NOT NULL CHECK (role IN ('customer', 'ai', 'human', 'system')),
  text text NOT NULL,
  message_id text,
  created_at timestamptz NOT NULL,
  UNIQUE (conversation_id, message_id)
);

CREATE TABLE events (
  account_id text NOT NULL,
  environment text NOT NULL,
  seq bigint NOT NULL,
  id text NOT NULL UNIQUE,
  type text NOT NULL,
  conversation_id text,
  data jsonb NOT NULL,
  caused_by text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, environment, seq),
  FOREIGN KEY (account_id, environment) REFERENCES feeds (account_id, environment)
);
CREATE INDEX events_by_cause ON events (caused_by);

CREATE TABLE knowledge_documents (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  title text NOT NULL,
  body text NOT NULL,
  approved boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX knowledge_by_account ON knowledge_documents (account_id);
