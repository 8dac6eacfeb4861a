-- Choices (quick replies) and cards that come with some answers.
ALTER TABLE messages ADD COLUMN attributes jsonb;

-- What a visitor typed into the pre-chat form, for the people who may answer later.
ALTER TABLE conversations ADD COLUMN contact_name text;
ALTER TABLE conversations ADD COLUMN contact_email text;
