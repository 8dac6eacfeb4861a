-- Two records of issue 29 and 32.
-- A monitor finding's environment (sandbox or live): the engine's, which is the conversation's the
-- event was taken for. The findings routes show a finding only with a conversation of its own
-- environment, and filter by it. Findings kept before this migration take their conversation's.
ALTER TABLE monitor_findings ADD COLUMN environment text;
UPDATE monitor_findings f SET environment = COALESCE(c.environment, 'live') FROM conversations c WHERE c.id = f.conversation_id;
ALTER TABLE monitor_findings ALTER COLUMN environment SET NOT NULL;
ALTER TABLE monitor_findings ADD CONSTRAINT monitor_findings_environment CHECK (environment IN ('sandbox', 'live'));
-- When the customer skipped "Get the reply by e-mail?" in the widget: the ask does not come back in
-- that conversation (after a reload, in another tab, on another device of the same customer).
ALTER TABLE conversations ADD COLUMN email_ask_skipped_at timestamptz;
