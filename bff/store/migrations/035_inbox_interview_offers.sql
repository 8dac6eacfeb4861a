-- A research interview of the engine an inbox offers on the widget's home screen (issue 29):
-- `{ "interview_id": "ivw_…", "label": "…" }`, label optional. Null: the inbox offers none.
ALTER TABLE inboxes ADD COLUMN interview_offer jsonb;
