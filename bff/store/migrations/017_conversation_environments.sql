-- Each conversation belongs to one environment (the customer's credential said which: a sandbox or
-- live site key, a sandbox or live API key; the Client API's contacts are live) and goes to the
-- engine with the BFF's key of that environment. Rows kept before are given, at start, the
-- environment of the one key the BFF had then (the first of AI_API_KEY).
ALTER TABLE conversations ADD COLUMN environment text CHECK (environment IN ('sandbox', 'live'));
