-- Each helpdesk account made through the Platform API is served by an engine account of its own
-- (issue 26): made through the engine's operator routes when the helpdesk account is made, with a
-- key per environment, suspended, resumed and deleted with it. Accounts (and inboxes of no account)
-- without a row are served by the installation's configured keys (AI_API_KEY), as they were before.
CREATE TABLE engine_accounts (
  account_id integer PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  -- The engine's id of the account (acc_…).
  engine_account_id text NOT NULL UNIQUE,
  -- Its API keys, sealed (SecretBox): {"sandbox": "service_test_…", "live": "service_live_…"}.
  api_keys text NOT NULL,
  -- The engine's webhook endpoints that post this account's events to /v1/engine-webhooks/{account_id},
  -- sealed: [{"environment", "id", "secret"}]. NULL while there are none (its events come from the feed).
  webhooks text,
  -- Where each environment's feed has been read up to.
  feed_cursor_sandbox text,
  feed_cursor_live text,
  created_at timestamptz NOT NULL
);
