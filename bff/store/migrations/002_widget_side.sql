-- The rest of the widget side: inbox settings, who has a conversation, read positions, closing
-- through the outbox, surveys, revoked session tokens, and where the engine's feed was read to.

ALTER TABLE inboxes ADD COLUMN color text NOT NULL DEFAULT '#1f3a5f';
ALTER TABLE inboxes ADD COLUMN locale text NOT NULL DEFAULT 'en';
ALTER TABLE inboxes ADD COLUMN survey_enabled boolean NOT NULL DEFAULT true;
ALTER TABLE inboxes ADD COLUMN prechat_enabled boolean NOT NULL DEFAULT false;

-- 'ai' or 'human': who answers now, as the engine's handover and handback events say.
ALTER TABLE conversations ADD COLUMN handled_by text NOT NULL DEFAULT 'ai' CHECK (handled_by IN ('ai', 'human'));
-- The customer asked to close; the relay tells the engine after the messages before it.
ALTER TABLE conversations ADD COLUMN close_requested boolean NOT NULL DEFAULT false;
ALTER TABLE conversations ADD COLUMN engine_closed boolean NOT NULL DEFAULT false;
ALTER TABLE conversations ADD COLUMN resolved_by_ai boolean;
ALTER TABLE conversations ADD COLUMN customer_last_read_id bigint NOT NULL DEFAULT 0;

-- 'read' once an answer came after the customer's message.
ALTER TABLE messages ADD COLUMN read_at timestamptz;
ALTER TABLE messages ADD COLUMN author_name text;

CREATE TABLE surveys (
  conversation_id bigint PRIMARY KEY REFERENCES conversations (id),
  rating integer NOT NULL CHECK (rating BETWEEN 1 AND 5),
  comment text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Session tokens revoked before they expire, by their jti; rows can go once expires_at passes.
CREATE TABLE revoked_sessions (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

-- Engine events seen (by any path), so each counts once.
CREATE TABLE engine_events_seen (
  event_id text PRIMARY KEY,
  seen_at timestamptz NOT NULL
);
