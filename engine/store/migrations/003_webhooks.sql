-- Webhook delivery (SPEC "Webhook delivery"). An endpoint reads its account's feed from its own
-- cursor (fed_seq) and turns each event it subscribes to into a delivery; deliveries are sent and
-- retried by any engine process, each claimed with SKIP LOCKED so two never send one at once.

CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  url text NOT NULL,
  -- NULL: every event type.
  event_types text[],
  description text NOT NULL DEFAULT '',
  -- The signing secret: the engine must sign with it, so it is kept, and shown only at creation.
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  -- The last feed position turned into deliveries; a new endpoint starts at the feed's end.
  fed_seq bigint NOT NULL,
  -- Since when every attempt has failed (NULL after a success); five days of it switch the endpoint off.
  failing_since timestamptz,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_by_account ON webhook_endpoints (account_id, environment) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id),
  event_id text NOT NULL,
  event_type text NOT NULL,
  -- The event's place in the feed (0 for a ping): an endpoint's deliveries are sent in this order.
  event_seq bigint NOT NULL,
  -- The exact body to post (the event plus its environment), so every attempt sends the same bytes.
  body text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  -- Attempts in the current round (a manual resend starts a new round); the retry waits follow it.
  round_attempts int NOT NULL DEFAULT 0,
  -- When the next attempt is due; while one is under way, when its claim runs out.
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
