-- A person's pubsub_token for ActionCable's RoomChannel (bff/cable), as Chatwoot gives its users
-- one: derived from the access token or session it goes with (SHA-256 of "parley-pubsub:" and the
-- token, shown with the token), so it ends when they end. Kept only as its own SHA-256. Tokens
-- issued before this migration have none: a new sign-in (or access token) gives one.
ALTER TABLE access_tokens ADD COLUMN pubsub_hash text;
CREATE UNIQUE INDEX access_tokens_by_pubsub_hash ON access_tokens (pubsub_hash) WHERE pubsub_hash IS NOT NULL;
