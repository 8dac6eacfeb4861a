-- The helpdesk Client API (Chatwoot-compatible): inbox identifiers and settings, contacts, and
-- what custom clients see of messages.

ALTER TABLE inboxes ADD COLUMN display_id bigserial;
ALTER TABLE inboxes ADD COLUMN identifier text UNIQUE;
ALTER TABLE inboxes ADD COLUMN hmac_token text;
ALTER TABLE inboxes ADD COLUMN hmac_mandatory boolean NOT NULL DEFAULT false;
ALTER TABLE inboxes ADD COLUMN timezone text NOT NULL DEFAULT 'UTC';
ALTER TABLE inboxes ADD COLUMN working_hours_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE inboxes ADD COLUMN greeting_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE inboxes ADD COLUMN lock_to_single_conversation boolean NOT NULL DEFAULT false;
-- Origins allowed to call the Client API of this inbox from a browser; empty means any.
ALTER TABLE inboxes ADD COLUMN client_api_origins text[] NOT NULL DEFAULT '{}';

-- A contact of an inbox. The source_id (the contact_identifier of the routes) and the
-- pubsub_token are capabilities: at least 128 random bits each, unless a client chose its own source_id.
CREATE TABLE contacts (
  id bigserial PRIMARY KEY,
  inbox_id text NOT NULL REFERENCES inboxes (id),
  source_id text NOT NULL,
  pubsub_token text NOT NULL UNIQUE,
  identifier text,
  name text NOT NULL,
  email text,
  phone_number text,
  custom_attributes jsonb NOT NULL DEFAULT '{}',
  hmac_verified boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (inbox_id, source_id)
);
CREATE INDEX contacts_by_identifier ON contacts (inbox_id, identifier);
CREATE INDEX contacts_by_email ON contacts (inbox_id, lower(email));
CREATE INDEX contacts_by_phone ON contacts (inbox_id, phone_number);

ALTER TABLE conversations ADD COLUMN custom_attributes jsonb NOT NULL DEFAULT '{}';
ALTER TABLE conversations ADD COLUMN contact_last_seen_at timestamptz;
ALTER TABLE conversations ADD COLUMN agent_last_seen_at timestamptz;

-- 'text' for most; 'input_csat' for the survey question a resolve adds (Chatwoot's template message).
ALTER TABLE messages ADD COLUMN content_type text NOT NULL DEFAULT 'text';
ALTER TABLE messages ADD COLUMN submitted_values jsonb;

-- The first contact of the same person (matched by identifier, email or phone): a match makes a
-- new contact (new capabilities) linked to it, so no one gets another person's conversations by naming them.
ALTER TABLE contacts ADD COLUMN person_id bigint;
