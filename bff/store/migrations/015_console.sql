-- The agent console: the page the customer was on when the conversation started. (When people
-- last read a conversation is agent_last_seen_at, kept since the Client API: 004.)
ALTER TABLE conversations ADD COLUMN page_url text;
