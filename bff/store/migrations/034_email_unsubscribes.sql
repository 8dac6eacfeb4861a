-- The one-click unsubscribe of a digest (RFC 8058, `List-Unsubscribe`): a random token per e-mail,
-- kept only as its SHA-256, naming the conversation whose e-mails it stops. Not single-use: a mail
-- client may post it twice, and stopping what is stopped changes nothing.
CREATE TABLE email_unsubscribe_tokens (
  token_hash text PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX email_unsubscribe_tokens_by_conversation ON email_unsubscribe_tokens (conversation_id);
