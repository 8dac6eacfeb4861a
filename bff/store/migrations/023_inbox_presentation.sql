-- What the widget shows before the first message and in its header (issue 16), with Chatwoot's
-- names where Chatwoot has them: the shop's logo, the welcome title and tagline, how soon people
-- reply; and Parley's own: up to three suggested questions, the greeting in other languages (locale →
-- text, so the greeting is not English under Arabic), a public address to write to, and the working
-- hours in the inbox's time zone (Chatwoot's weekly schedule: seven days; null while never set).
-- reply_time stays null until set: the widget claims no reply time the shop did not choose.
ALTER TABLE inboxes ADD COLUMN avatar_url text NOT NULL DEFAULT '';
ALTER TABLE inboxes ADD COLUMN welcome_title text NOT NULL DEFAULT '';
ALTER TABLE inboxes ADD COLUMN welcome_tagline text NOT NULL DEFAULT '';
ALTER TABLE inboxes ADD COLUMN reply_time text
  CHECK (reply_time IN ('in_a_few_minutes', 'in_a_few_hours', 'in_a_day'));
ALTER TABLE inboxes ADD COLUMN suggested_questions text[] NOT NULL DEFAULT '{}';
ALTER TABLE inboxes ADD COLUMN greeting_translations jsonb NOT NULL DEFAULT '{}';
ALTER TABLE inboxes ADD COLUMN email text NOT NULL DEFAULT '';
ALTER TABLE inboxes ADD COLUMN working_hours jsonb;
