-- The agent customers meet, per account and environment (GET/PATCH /v1/agent): its name, greeting
-- per language, tone, handover rules, brain, and the kill switch that hands everything to people.
-- No row: the defaults (engine/store/agent.ts). The brain here is the environment's own choice;
-- accounts.brain (005) stays the account's choice for an environment that has none.
CREATE TABLE agent_settings (
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  name text,
  greeting jsonb NOT NULL DEFAULT '{}',
  tone text NOT NULL DEFAULT 'friendly' CHECK (tone IN ('friendly', 'neutral', 'formal')),
  handover_after_failed_answers integer CHECK (handover_after_failed_answers BETWEEN 1 AND 10),
  handover_keywords text[] NOT NULL DEFAULT '{}',
  brain text CHECK (brain IN ('retrieval', 'llm')),
  kill_switch_since timestamptz,
  kill_switch_reason text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, environment)
);

-- Forgetting a customer (POST /v1/customers/{customer_ref}/forget) finds a conversation's events
-- and an event's webhook deliveries; the conversation row stays (for counts) with its reference
-- replaced, marked by when it was forgotten.
CREATE INDEX events_by_conversation ON events (conversation_id) WHERE conversation_id IS NOT NULL;
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
ALTER TABLE conversations ADD COLUMN forgotten_at timestamptz;
-- A customer.forgotten event names the customer only for a week (engine/customer-erasure.ts).
CREATE INDEX events_forget_notices ON events (created_at) WHERE type = 'customer.forgotten';
