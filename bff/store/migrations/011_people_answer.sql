-- People answer conversations from the helpdesk: who a conversation is assigned to, and private
-- notes (messages for the people only, never shown to the customer).
ALTER TABLE conversations ADD COLUMN assignee_id integer REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE messages ADD COLUMN private boolean NOT NULL DEFAULT false;
