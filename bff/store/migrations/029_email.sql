-- Conversations continued by e-mail (issue 32).
--
-- A digest waiting to be sent: one row per conversation, made by the first answer the customer
-- was not there to read and left alone by the next ones, so that the answers of `EMAIL_DIGEST_DELAY_S`
-- go out as one e-mail. `after_id` is the last message already e-mailed (or already there when the
-- row was made); `lease_*` is the node sending it now (the outbox rules: one sender, a crashed
-- one's lease runs out); `attempts` counts failed sends for the back-off.
CREATE TABLE email_digests (
  conversation_id bigint PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
  after_id bigint NOT NULL,
  due_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX email_digests_by_due ON email_digests (due_at);

-- The token of a `reply+<token>@MAIL_REPLY_DOMAIN` address, kept only as its SHA-256: it names the
-- conversation a reply belongs to, and `sent_to` is the address the digest went to (a reply from
-- another sender is kept for the team, marked unverified).
CREATE TABLE email_reply_tokens (
  token_hash text PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  sent_to text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX email_reply_tokens_by_conversation ON email_reply_tokens (conversation_id);

-- The single-use link of a digest that opens the conversation again in the hosted /chat page,
-- kept only as its SHA-256; `used_at` is set by the one exchange it allows.
CREATE TABLE email_continuations (
  token_hash text PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_continuations_by_conversation ON email_continuations (conversation_id);
