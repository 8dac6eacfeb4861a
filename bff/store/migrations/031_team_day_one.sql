-- Issue 31, what a support team needs on its first day (Chatwoot's shapes): labels on conversations,
-- teams and who is in them, a conversation assigned to a team, each person's availability per
-- account (in the store, so every node knows it), and the indexes that search and snooze need.

CREATE TABLE labels (
  id serial PRIMARY KEY,
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- Lower case letters, digits, _ and - (Chatwoot's); unique in the account.
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  color text NOT NULL DEFAULT '#1f93ff',
  show_on_sidebar boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  UNIQUE (account_id, title)
);

CREATE TABLE conversation_labels (
  conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  label_id integer NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
  PRIMARY KEY (conversation_id, label_id)
);
CREATE INDEX conversation_labels_by_label ON conversation_labels (label_id);

CREATE TABLE teams (
  id serial PRIMARY KEY,
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- When the AI hands a conversation of the team over, it goes round the team's available members.
  allow_auto_assign boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (account_id, name)
);

CREATE TABLE team_members (
  team_id integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (team_id, user_id)
);

ALTER TABLE conversations ADD COLUMN team_id integer REFERENCES teams (id) ON DELETE SET NULL;

-- A person's availability in an account (Chatwoot's online / busy / offline). No row: offline.
CREATE TABLE availabilities (
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  availability text NOT NULL CHECK (availability IN ('online', 'busy', 'offline')),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, user_id)
);

-- Search by the customer's words in any language: the 'simple' configuration stems nothing.
CREATE INDEX messages_words ON messages USING gin (to_tsvector('simple', text));
-- Snoozes that end at a time, for the job that opens them again when they lapse.
CREATE INDEX conversations_snoozed ON conversations (snoozed_until) WHERE snoozed_until IS NOT NULL;

-- A widget customer's contact for the people (its name, e-mail, phone and attributes edited from the
-- console): made when people first open one of their conversations, found by the customer's
-- reference. Its source_id and pubsub_token are random like every contact's, so nobody reaches it
-- through the Client API by knowing the reference.
ALTER TABLE contacts ADD COLUMN customer_ref text;
CREATE UNIQUE INDEX contacts_by_customer_ref ON contacts (inbox_id, customer_ref) WHERE customer_ref IS NOT NULL;
