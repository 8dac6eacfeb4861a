-- Calls with the AI (issue 30) where every BFF node sees them: the call itself (its relay's two
-- WebSockets) lives on the node that began it, but its row here makes "one call with the AI per
-- conversation" hold across nodes. The row lasts while the call does; its node renews the lease
-- (`held_until`), and a row whose lease lapsed (its node stopped) may be taken by a new call.
CREATE TABLE ai_calls (
  conversation_id bigint PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
  id text NOT NULL UNIQUE,
  node text NOT NULL,
  held_until timestamptz NOT NULL
);
CREATE INDEX ai_calls_node ON ai_calls (node);
