-- Customers' answers to a conversation's satisfaction survey (CSAT), sent by the caller (the BFF
-- forwards what the widget, the Client API and the survey page take); the latest answer counts.
CREATE TABLE survey_responses (
  conversation_id text PRIMARY KEY REFERENCES conversations (id),
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  rating integer NOT NULL CHECK (rating BETWEEN 1 AND 5),
  comment text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX survey_responses_by_account ON survey_responses (account_id, environment, created_at);

-- Reports and usage count an account's conversations, and their turns, by when they happened.
CREATE INDEX conversations_by_account_time ON conversations (account_id, environment, created_at);
CREATE INDEX turns_by_conversation ON turns (conversation_id, position);
