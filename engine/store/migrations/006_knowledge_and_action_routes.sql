-- Knowledge documents as the API manages them: when each was approved, and the key of a document
-- imported from a file (`npm run engine:knowledge`), so that importing the file again updates it.
ALTER TABLE knowledge_documents ADD COLUMN approved_at timestamptz;
UPDATE knowledge_documents SET approved_at = updated_at WHERE approved;
ALTER TABLE knowledge_documents ADD COLUMN source text;
CREATE UNIQUE INDEX knowledge_by_source ON knowledge_documents (account_id, source) WHERE source IS NOT NULL;
-- Lists page oldest first by (created_at, id); this index also serves every lookup by account.
DROP INDEX knowledge_by_account;
CREATE INDEX knowledge_by_account ON knowledge_documents (account_id, created_at, id);

-- One number per account that every change to its knowledge documents moves on, in the statement
-- that makes the change: each engine process's knowledge cache compares it before answering, so
-- a change made through any process is seen by the next answer of every process.
CREATE TABLE knowledge_versions (
  account_id text PRIMARY KEY REFERENCES accounts (id),
  version bigint NOT NULL
);

-- An action's live URL: for live customers the engine posts the action request there, signed with
-- the action's own secret (sealed, as webhook secrets are).
ALTER TABLE actions ADD COLUMN url text;
ALTER TABLE actions ADD COLUMN secret text;
ALTER TABLE actions ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE sandbox_fixtures ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- A request the engine calls an action's URL for is leased while it is being called: a process
-- that died mid-call lets the lease lapse, and the webhook worker of any process calls it again.
ALTER TABLE action_requests ADD COLUMN call_until timestamptz;
CREATE INDEX action_requests_to_call ON action_requests (call_until) WHERE handled_by = 'url' AND status = 'pending';
