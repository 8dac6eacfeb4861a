-- Voice notes heard by the AI (issue 30): a customer's voice note is uploaded to the engine's
-- /v1/media in its conversation; the engine's medium id is kept to match its media.understood
-- event, whose transcript is kept for the team.
ALTER TABLE attachments ADD COLUMN engine_media_id text;
ALTER TABLE attachments ADD COLUMN transcript text;
CREATE INDEX attachments_by_engine_media ON attachments (engine_media_id) WHERE engine_media_id IS NOT NULL;
