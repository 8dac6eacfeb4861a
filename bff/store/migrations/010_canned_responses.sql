-- Canned responses: short texts people insert in a reply by their short code (/shortcode in the console).
CREATE TABLE canned_responses (
  id serial PRIMARY KEY,
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  short_code text NOT NULL,
  content text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (account_id, short_code)
);
