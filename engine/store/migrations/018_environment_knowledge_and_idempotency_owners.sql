-- Knowledge documents and actions belong to an environment, as the agent does (SPEC: a sandbox key
-- reaches only the sandbox; issue 33). What an account had before was used by both environments'
-- customers, so it stays in both: each row is kept as the live one (its id unchanged, so a live
-- integration that stored it keeps working) and copied to the sandbox (a new id). A live key copies
-- a sandbox document or action to live later (`POST /v1/knowledge/{id}/promote`,
-- `POST /v1/actions/{name}/promote`); a live document made that way names its sandbox original in
-- `promoted_from`, so promoting it again updates it instead of adding another.
ALTER TABLE knowledge_documents ADD COLUMN environment text NOT NULL DEFAULT 'live' CHECK (environment IN ('sandbox', 'live'));
ALTER TABLE knowledge_documents ADD COLUMN promoted_from text;
DROP INDEX knowledge_by_source;
CREATE UNIQUE INDEX knowledge_by_source ON knowledge_documents (account_id, environment, source) WHERE source IS NOT NULL;
-- The sandbox copy's id is made from the live one's, so each live row can name its copy.
INSERT INTO knowledge_documents (id, account_id, environment, title, body, url, locale, approved, approved_at, source, created_at, updated_at)
  SELECT 'doc_' || md5('sandbox:' || id), account_id, 'sandbox', title, body, url, locale, approved, approved_at,
    source, created_at, updated_at
  FROM knowledge_documents ORDER BY position;
UPDATE knowledge_documents SET promoted_from = 'doc_' || md5('sandbox:' || id) WHERE environment = 'live';
ALTER TABLE knowledge_documents ALTER COLUMN environment DROP DEFAULT;
CREATE UNIQUE INDEX knowledge_promoted_from ON knowledge_documents (promoted_from) WHERE promoted_from IS NOT NULL;
DROP INDEX knowledge_by_account_position;
CREATE INDEX knowledge_by_account_position ON knowledge_documents (account_id, environment, position);

-- One knowledge version per account and environment: each environment's brain rebuilds on its own changes.
ALTER TABLE knowledge_versions ADD COLUMN environment text NOT NULL DEFAULT 'live';
ALTER TABLE knowledge_versions DROP CONSTRAINT knowledge_versions_pkey;
ALTER TABLE knowledge_versions ADD PRIMARY KEY (account_id, environment);
INSERT INTO knowledge_versions (account_id, environment, version) SELECT account_id, 'sandbox', version FROM knowledge_versions;
ALTER TABLE knowledge_versions ALTER COLUMN environment DROP DEFAULT;

-- Actions: the live one keeps its URL and sealed secret; the sandbox copy has none (sandbox
-- customers never reach a URL: a fixture or the caller's server runs the action).
ALTER TABLE actions ADD COLUMN environment text NOT NULL DEFAULT 'live' CHECK (environment IN ('sandbox', 'live'));
ALTER TABLE actions DROP CONSTRAINT actions_pkey;
ALTER TABLE actions ADD PRIMARY KEY (account_id, environment, name);
INSERT INTO actions (account_id, environment, name, description, definition, url, secret, created_at, updated_at)
  SELECT account_id, 'sandbox', name, description, definition, NULL, NULL, created_at, updated_at FROM actions;
ALTER TABLE actions ALTER COLUMN environment DROP DEFAULT;

-- Idempotency records name the customer they were about (issue 33): a forget finds them however
-- the caller spelled its Idempotency-Key (a key may hold an e-mail address). And a running
-- record names the engine process that holds it and until when (issue 34): the process renews the
-- lease every few seconds while the first request runs, so a record whose process died (kill -9,
-- a lost database connection) is free again within seconds, not a minute.
ALTER TABLE idempotency_keys ADD COLUMN customer_ref text;
ALTER TABLE idempotency_keys ADD COLUMN conversation_id text;
ALTER TABLE idempotency_keys ADD COLUMN held_by text;
ALTER TABLE idempotency_keys ADD COLUMN held_until timestamptz;
CREATE INDEX idempotency_keys_by_customer ON idempotency_keys (customer_ref) WHERE customer_ref IS NOT NULL;
CREATE INDEX idempotency_keys_by_conversation ON idempotency_keys (conversation_id) WHERE conversation_id IS NOT NULL;
