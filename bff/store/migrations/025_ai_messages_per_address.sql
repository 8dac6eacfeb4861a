-- New messages a minute one client address may send an inbox's AI, when the inbox needs more than
-- the BFF's default (issue 26: offices and mobile networks where many customers share an address).
-- Null: the default. Bounded again where it is set (the Application API, the inbox CLI).
ALTER TABLE inboxes ADD COLUMN ai_messages_per_address_per_minute integer
  CHECK (ai_messages_per_address_per_minute > 0);
