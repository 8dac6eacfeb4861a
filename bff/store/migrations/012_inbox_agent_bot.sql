-- The agent bot connected to an inbox: a bot acts only on the conversations of inboxes it is connected to.
ALTER TABLE inboxes ADD COLUMN agent_bot_id integer REFERENCES agent_bots (id) ON DELETE SET NULL;
