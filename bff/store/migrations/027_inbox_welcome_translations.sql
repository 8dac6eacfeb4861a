-- The home screen's welcome title, tagline and suggested questions in the widget's other languages
-- (issue 28), as greeting_translations holds the greeting: language → text (for the questions,
-- language → up to three questions). The widget's config gives the ones in the widget's language.
ALTER TABLE inboxes ADD COLUMN welcome_title_translations jsonb NOT NULL DEFAULT '{}';
ALTER TABLE inboxes ADD COLUMN welcome_tagline_translations jsonb NOT NULL DEFAULT '{}';
ALTER TABLE inboxes ADD COLUMN suggested_questions_translations jsonb NOT NULL DEFAULT '{}';
