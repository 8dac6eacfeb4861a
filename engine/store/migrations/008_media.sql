-- Media (POST /v1/media): photos and documents, checked by their bytes. The bytes live in the
-- database itself (bytea, apart from the record so that reading records never loads them): that
-- works alike on PGlite in memory, PGlite on disk and PostgreSQL shared by several engines, where a
-- folder of one machine would not.
CREATE TABLE media (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  conversation_id text REFERENCES conversations (id),
  type text NOT NULL,
  size integer NOT NULL,
  width integer,
  height integer,
  pages integer,
  name text,
  status text NOT NULL CHECK (status IN ('processing', 'understood', 'failed')),
  text text,
  failure_reason text,
  -- Understanding runs after the upload, claimed by one engine process at a time until this time.
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  processed_at timestamptz
);
CREATE INDEX media_by_account ON media (account_id, environment, created_at);
CREATE INDEX media_processing ON media (created_at) WHERE status = 'processing';
CREATE INDEX media_by_conversation ON media (conversation_id);

CREATE TABLE media_bytes (
  media_id text PRIMARY KEY REFERENCES media (id) ON DELETE CASCADE,
  bytes bytea NOT NULL
);
