-- A contact's source_id and pubsub_token are capabilities (issue 33): whoever reads the database
-- must find neither. Each is found by its keyed hash (HMAC-SHA-256 under a key derived from the
-- secrets key, `<kid>:<hash>`: SecretBox.lookupHash) and kept only sealed, because the Client API
-- shows both again (the contact's GET and PATCH, its conversations, attachment URLs in pushed
-- events, a proved create that finds its contact). The BFF hashes and seals older rows at start
-- (bff/host/store-preparation.ts), before it serves. A widget customer's contact, made for the
-- people (migration 031), is given to no one: it keeps no capability at all.
ALTER TABLE contacts ADD COLUMN source_id_hash text;
ALTER TABLE contacts ADD COLUMN pubsub_token_hash text;
ALTER TABLE contacts ALTER COLUMN source_id DROP NOT NULL;
ALTER TABLE contacts ALTER COLUMN pubsub_token DROP NOT NULL;
ALTER TABLE contacts DROP CONSTRAINT contacts_inbox_id_source_id_key;
ALTER TABLE contacts DROP CONSTRAINT contacts_pubsub_token_key;
UPDATE contacts SET source_id = NULL, pubsub_token = NULL WHERE customer_ref IS NOT NULL;
CREATE UNIQUE INDEX contacts_by_source_id_hash ON contacts (inbox_id, source_id_hash);
CREATE UNIQUE INDEX contacts_by_pubsub_token_hash ON contacts (pubsub_token_hash);
