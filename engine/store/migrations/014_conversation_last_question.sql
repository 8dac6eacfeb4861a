-- What the retrieval brain remembers of the customer's last question, so that a follow-up such as
-- "and how long do I have?" is read with it (issue 28): the question as the brain read it, and the
-- language the customer writes in. Conversations kept before remember none.
ALTER TABLE conversations ADD COLUMN last_question text;
ALTER TABLE conversations ADD COLUMN customer_language text;
