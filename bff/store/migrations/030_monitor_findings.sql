-- What the engine's monitors found in the BFF's conversations (`monitor.finding`, issue 29), for the
-- console's Findings list and the conversation's line for the team. One row per engine event, so a
-- finding that arrives by more than one path (webhook, feed) is kept once. `account_id` is the
-- helpdesk account of the conversation's inbox, taken from the inbox, never from the event. The
-- excerpt is the customer's or the AI's words: it goes with its conversation (a forget deletes it).
CREATE TABLE monitor_findings (
  id bigserial PRIMARY KEY,
  engine_event_id text NOT NULL UNIQUE,
  account_id integer REFERENCES accounts (id) ON DELETE CASCADE,
  conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  monitor_id text NOT NULL,
  monitor_name text,
  engine_message_id text NOT NULL,
  excerpt text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('low', 'medium', 'high')),
  created_at timestamptz NOT NULL
);
CREATE INDEX monitor_findings_by_account ON monitor_findings (account_id, id);
CREATE INDEX monitor_findings_by_conversation ON monitor_findings (conversation_id, id);
