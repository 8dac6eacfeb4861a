-- A survey answer goes on to the engine (POST /v1/conversations/{id}/survey, for survey.response and
-- the engine's reports), through the relay after the conversation's messages and its close. This is
-- the updated_at of the answer the engine has; the answer waits while it differs. Answers kept
-- before this were never sent, and are not sent now: a start does not flood the engine with the past.
ALTER TABLE surveys ADD COLUMN engine_forwarded_at timestamptz;
UPDATE surveys SET engine_forwarded_at = updated_at;
CREATE INDEX surveys_to_forward ON surveys (conversation_id) WHERE engine_forwarded_at IS DISTINCT FROM updated_at;
