-- The helpdesk: accounts, their people (users with a role per account), agent bots, the tokens
-- that reach the Platform and Application APIs (kept only as SHA-256 hashes), and the audit log.
-- Ids are integers, as in Chatwoot's helpdesk APIs.

-- An operator's credential for the Platform API. It reaches what it created.
CREATE TABLE platform_tokens (
  id serial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  name text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE accounts (
  id serial PRIMARY KEY,
  name text NOT NULL,
  locale text NOT NULL DEFAULT 'en',
  domain text,
  support_email text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  custom_attributes jsonb NOT NULL DEFAULT '{}',
  -- Feature switches (audit_logs, …), as Chatwoot's account features.
  features jsonb NOT NULL DEFAULT '{"audit_logs": true}',
  platform_token_id integer REFERENCES platform_tokens (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  name text NOT NULL,
  display_name text,
  email text NOT NULL UNIQUE,
  -- scrypt, as "scrypt$<salt>$<hash>"; null: the person signs in by one-time links only.
  password_hash text,
  custom_attributes jsonb NOT NULL DEFAULT '{}',
  platform_token_id integer REFERENCES platform_tokens (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE account_users (
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('administrator', 'agent')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, user_id)
);

-- Agent bots: of one account (made with the Application API) or of the installation (Platform API).
CREATE TABLE agent_bots (
  id serial PRIMARY KEY,
  account_id integer REFERENCES accounts (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  outgoing_url text,
  platform_token_id integer REFERENCES platform_tokens (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Credentials of people and bots for the Application API: the long-lived access token, and
-- sessions (signed in by a one-time link or a password) that expire.
CREATE TABLE access_tokens (
  token_hash text PRIMARY KEY,
  user_id integer REFERENCES users (id) ON DELETE CASCADE,
  agent_bot_id integer REFERENCES agent_bots (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('access_token', 'session')),
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  CHECK ((user_id IS NULL) <> (agent_bot_id IS NULL))
);
CREATE UNIQUE INDEX access_tokens_one_per_user ON access_tokens (user_id) WHERE kind = 'access_token' AND user_id IS NOT NULL;
CREATE UNIQUE INDEX access_tokens_one_per_bot ON access_tokens (agent_bot_id) WHERE kind = 'access_token' AND agent_bot_id IS NOT NULL;

-- One-time sign-in links (GET /platform/api/v1/users/{id}/login): short-lived, used once.
CREATE TABLE sign_in_links (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

-- Who changed what, when, with the values before and after.
CREATE TABLE audit_logs (
  id serial PRIMARY KEY,
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id integer,
  user_type text NOT NULL CHECK (user_type IN ('User', 'AgentBot', 'PlatformApp')),
  username text NOT NULL DEFAULT '',
  auditable_type text NOT NULL,
  auditable_id text NOT NULL,
  action text NOT NULL CHECK (action IN ('create', 'update', 'destroy')),
  audited_changes jsonb NOT NULL,
  remote_address text,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_logs_by_account ON audit_logs (account_id, created_at);

-- Inboxes belong to an account; deleting an account deletes its inboxes and their conversations
-- explicitly (bff/store/accounts.ts), so no cascade here.
ALTER TABLE inboxes ADD COLUMN account_id integer REFERENCES accounts (id);
