-- Helpdesk webhooks (SPEC "Verifying requests sent by the service": X-Desk-*). The account's
-- webhooks and each agent bot's outgoing_url are endpoints; what happens to a conversation is
-- written as deliveries in the same transaction as the change, then sent, retried and switched off
-- by the same kit as the engine's webhooks (shared/server/webhooks), with the same three tables.

-- Every agent bot has a secret its deliveries are signed with, shown once when the bot is made.
ALTER TABLE agent_bots ADD COLUMN webhook_secret text;
UPDATE agent_bots SET webhook_secret = 'whsec_' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '') WHERE webhook_secret IS NULL;
ALTER TABLE agent_bots ALTER COLUMN webhook_secret SET NOT NULL;

CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  -- The webhook's number in the Application API (Chatwoot's integer ids).
  number serial UNIQUE,
  -- An account's webhook; NULL for an installation bot's outgoing_url.
  account_id integer REFERENCES accounts (id) ON DELETE CASCADE,
  -- Set when this endpoint is an agent bot's outgoing_url (it gets the conversations of the inboxes the bot is connected to).
  agent_bot_id integer REFERENCES agent_bots (id) ON DELETE CASCADE,
  name text,
  url text NOT NULL,
  -- Chatwoot's subscriptions; NULL: every event.
  event_types text[],
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  failing_since timestamptz,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_by_account ON webhook_endpoints (account_id) WHERE deleted_at IS NULL AND agent_bot_id IS NULL;
CREATE UNIQUE INDEX webhook_endpoints_one_per_bot ON webhook_endpoints (agent_bot_id) WHERE deleted_at IS NULL;

-- The order of helpdesk events: an endpoint's deliveries are sent in this order.
CREATE SEQUENCE desk_event_seq;

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  event_type text NOT NULL,
  event_seq bigint NOT NULL,
  body text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  round_attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);

CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  status int,
  error text,
  duration_ms int NOT NULL
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, id);
