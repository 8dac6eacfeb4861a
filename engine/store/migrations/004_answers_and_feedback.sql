-- Knowledge documents may name where they are published: answers from them link there.
ALTER TABLE knowledge_documents ADD COLUMN url text;
-- The article of the AI's last answer, until the customer says whether it helped.
ALTER TABLE conversations ADD COLUMN last_answer jsonb;
-- The customer's language (a BCP 47 tag, as the widget sends it): the AI's own words use it.
ALTER TABLE conversations ADD COLUMN locale text;
-- "Did that help?": each answer, per account and environment, for reports.
CREATE TABLE answer_feedback (
  id bigserial PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL,
  conversation_id text NOT NULL,
  source_id text NOT NULL,
  source_title text NOT NULL,
  helpful boolean NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX answer_feedback_by_account ON answer_feedback (account_id, environment, created_at);
