-- Attachments (issue 15): files customers send with a message, kept by the BFF. The bytes live in
-- the attachment storage (files under DATA_DIR, or a bucket) under a random key; these rows say
-- what each is, checked by its content, and whose conversation it belongs to.

-- Every key written to the storage, noted before its bytes are: bytes whose attachment is gone
-- (deleted with its message, conversation, inbox or account, or never kept because the send
-- failed) are found here and deleted by the sweep (bff/attachments/attachment-store.ts).
CREATE TABLE attachment_objects (
  storage_key text PRIMARY KEY,
  created_at timestamptz NOT NULL
);

-- uploader: who sent it (the customer through the widget, or a Client API contact). name: the
-- file's name as sent, made safe to show, with the extension of its checked type.
CREATE TABLE attachments (
  id bigserial PRIMARY KEY,
  message_id bigint NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  storage_key text NOT NULL UNIQUE REFERENCES attachment_objects (storage_key),
  uploader text NOT NULL CHECK (uploader IN ('widget', 'client_api')),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf')),
  size integer NOT NULL CHECK (size > 0),
  width integer,
  height integer,
  name text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX attachments_by_message ON attachments (message_id);
CREATE INDEX attachments_by_conversation ON attachments (conversation_id);
