-- The vectors an embeddings API gave for the sections of knowledge documents (EMBEDDINGS_BASE_URL,
-- issue 28), kept so that a restart or another engine process does not ask for them again. A row
-- holds for the model that made it and for the text it was made from (`text_hash`, a SHA-256 of
-- what was embedded): a section whose text changed is embedded again and its row replaced. The
-- vector is its float4 numbers, little-endian, as bytes (compact, and the same in PGlite and
-- PostgreSQL). A document's vectors go with it.
CREATE TABLE knowledge_section_vectors (
  account_id text NOT NULL REFERENCES accounts (id),
  document_id text NOT NULL REFERENCES knowledge_documents (id) ON DELETE CASCADE,
  section_id text NOT NULL,
  model text NOT NULL,
  text_hash text NOT NULL,
  vector bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, section_id, model)
);
CREATE INDEX knowledge_section_vectors_by_document ON knowledge_section_vectors (document_id);
