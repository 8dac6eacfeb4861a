-- The BFF's tables: inboxes and their site keys, and its own record of every conversation and
-- message, so that a customer's message is kept even while the engine cannot be reached.

CREATE TABLE inboxes (
  id text PRIMARY KEY,
  name text NOT NULL,
  greeting text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE site_keys (
  key text PRIMARY KEY,
  inbox_id text NOT NULL REFERENCES inboxes (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  allowed_origins text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE conversations (
  id bigserial PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE,
  inbox_id text NOT NULL REFERENCES inboxes (id),
  customer_ref text NOT NULL,
  engine_conversation_id text UNIQUE,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX conversations_by_customer ON conversations (inbox_id, customer_ref);

-- upstream: 'pending' = kept here, not yet accepted by the engine (the outbox); 'forwarded' = the
-- engine has it; 'rejected' = the engine refused it for good; 'none' = not the engine's to receive (replies and notices that came from it).
CREATE TABLE messages (
  id bigserial PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES conversations (id),
  author text NOT NULL CHECK (author IN ('customer', 'ai', 'human', 'system')),
  text text NOT NULL,
  message_id text,
  engine_event_id text UNIQUE,
  upstream text NOT NULL DEFAULT 'none' CHECK (upstream IN ('none', 'pending', 'forwarded', 'rejected')),
  created_at timestamptz NOT NULL,
  UNIQUE (conversation_id, message_id)
);
CREATE INDEX messages_by_conversation ON messages (conversation_id, id);
CREATE INDEX messages_pending ON messages (conversation_id, id) WHERE upstream = 'pending';

-- Settings the BFF keeps for itself, such as the API key it was given for the engine.
CREATE TABLE settings (
  name text PRIMARY KEY,
  value text NOT NULL
);
