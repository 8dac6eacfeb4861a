-- The API keys an account's administrators got for their site's server (Application API
-- /api/v1/accounts/{id}/api_keys): keys of the account's own engine account, made through the
-- engine's operator routes. Only these are listed and revoked through the helpdesk; the keys the BFF
-- itself goes to the engine with (engine_accounts.api_keys) are never among them. The key itself is
-- kept nowhere here: it was shown once, and the engine keeps its hash.
CREATE TABLE engine_account_keys (
  id serial PRIMARY KEY,
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- The engine's id of the key (key_…).
  engine_key_id text NOT NULL UNIQUE,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  -- The key's first 17 characters (service_test_ or service_live_ and four more), to tell keys apart.
  prefix text NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX engine_account_keys_account ON engine_account_keys (account_id, id);
