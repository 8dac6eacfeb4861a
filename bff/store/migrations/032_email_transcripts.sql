-- "E-mail me this conversation" (issue 32): a transcript the customer asked for, sent once to the
-- address it names. It is an outbox row like a digest: claimed with a lease (`lease_*`) so that one
-- node sends it, marked `sent_at` once the SMTP server took it (so a restart sends nothing twice),
-- and tried again with back-off (`attempts`, `due_at`). `up_to_id` is the last message it carries;
-- `requested_at` limits how often one conversation's transcript is sent.
CREATE TABLE email_transcripts (
  id bigserial PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  sent_to text NOT NULL,
  up_to_id bigint NOT NULL,
  requested_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  lease_owner text,
  lease_until timestamptz,
  sent_at timestamptz
);
CREATE INDEX email_transcripts_unsent ON email_transcripts (due_at) WHERE sent_at IS NULL;
CREATE INDEX email_transcripts_by_conversation ON email_transcripts (conversation_id, requested_at);
