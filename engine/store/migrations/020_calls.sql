-- Calls (issue 30): one per use of a voice session token (POST /v1/voice-sessions/connect), with a
-- person (WebRTC between the browsers, through the BFF) or with the AI (the engine's voice stream).
-- A call ends once: `ended_at` set in one statement, so two racing ends cannot both win.
CREATE TABLE calls (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  conversation_id text NOT NULL REFERENCES conversations (id),
  mode text NOT NULL CHECK (mode IN ('person', 'ai')),
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  ended_by text CHECK (ended_by IN ('customer', 'person', 'ai', 'network')),
  duration_s integer,
  -- An AI call's stream is opened once, with the voice token that began the call (only its hash is kept).
  stream_token_sha256 text,
  stream_expires_at timestamptz,
  stream_opened_at timestamptz
);
CREATE INDEX calls_by_conversation ON calls (conversation_id);
