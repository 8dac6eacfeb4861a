-- Which brain answers an account's customers: 'retrieval' or 'llm'; NULL: the LLM when the engine
-- has one configured (LLM_BASE_URL), else retrieval.
ALTER TABLE accounts ADD COLUMN brain text CHECK (brain IN ('retrieval', 'llm'));
-- The LLM's tokens, per account, environment and month (UTC), for usage and billing.
CREATE TABLE llm_usage (
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL,
  month text NOT NULL,
  prompt_tokens bigint NOT NULL DEFAULT 0,
  completion_tokens bigint NOT NULL DEFAULT 0,
  requests integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, environment, month)
);
