-- The people's states of a conversation, as Chatwoot's: a person may snooze an open conversation
-- until a time, or until the customer writes again ('infinity'); the customer's next message ends
-- any snooze.
ALTER TABLE conversations ADD COLUMN snoozed_until timestamptz;
-- Who sent a person's or an agent bot's answer (or note), so that a bot's answer is never shown as
-- a person's; null for the AI's own replies and for answers made elsewhere. No foreign keys: who
-- wrote a message stays known after the person or the bot is removed (ids are never reused).
ALTER TABLE messages ADD COLUMN sender_user_id integer;
ALTER TABLE messages ADD COLUMN sender_agent_bot_id integer;
