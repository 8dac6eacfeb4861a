-- Research interviews (issue 29): an interview is a title, an intro, its questions and a closing
-- line, of one account and environment; they list in the order they were made (position).
CREATE TABLE interviews (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  position bigserial NOT NULL,
  title text NOT NULL,
  intro text NOT NULL,
  questions jsonb NOT NULL,
  closing text NOT NULL,
  -- How many of its sessions have ended. Taking the next number locks this row until the commit,
  -- so sessions end in response_seq order and a reader paging responses never skips one.
  responses integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX interviews_by_account ON interviews (account_id, environment, position);

-- A conversation opened in interview mode: the interview's questions and closing line as they were
-- when it opened (a later change to the interview does not move a running one), the question being
-- asked, whether it was asked a second time, and how it ended (null while it runs). Deleting an
-- interview deletes its sessions and their answers; the conversations stay.
CREATE TABLE interview_sessions (
  conversation_id text PRIMARY KEY REFERENCES conversations (id),
  interview_id text NOT NULL REFERENCES interviews (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  questions jsonb NOT NULL,
  closing text NOT NULL,
  current_question integer NOT NULL DEFAULT 0,
  asked_again boolean NOT NULL DEFAULT false,
  outcome text CHECK (outcome IN ('completed', 'stopped', 'handed_over')),
  response_seq integer,
  created_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE UNIQUE INDEX interview_sessions_by_response ON interview_sessions (interview_id, response_seq);

-- The customer's answer to each question asked (their words: a customer's forget empties them).
CREATE TABLE interview_answers (
  conversation_id text NOT NULL REFERENCES interview_sessions (conversation_id) ON DELETE CASCADE,
  question_id text NOT NULL,
  question_index integer NOT NULL,
  answer text NOT NULL,
  skipped boolean NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (conversation_id, question_id)
);
