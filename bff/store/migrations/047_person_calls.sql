-- Person calls (issue 30) where every BFF node sees them: the customer's widget socket and the
-- person's console socket may be on two nodes, each of which relays the call's signalling through
-- the Socket.IO adapter to the other's socket id. A call ends once (`ended_at` set in one
-- statement). The node holding each side renews that side's lease (`*_until`); a side whose lease
-- lapses was on a node that stopped, and any node then ends the call.
CREATE TABLE person_calls (
  id text PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  rang_at timestamptz NOT NULL,
  customer_socket text NOT NULL,
  customer_node text NOT NULL,
  customer_until timestamptz NOT NULL,
  person_socket text,
  person_node text,
  person_until timestamptz,
  person_user_id integer,
  person_name text,
  answered_at timestamptz,
  -- The engine's call (call_…), once it began one.
  engine_call_id text,
  ended_at timestamptz,
  ended_by text CHECK (ended_by IN ('customer', 'person', 'network')),
  reason text CHECK (reason IN ('rang_out', 'too_long', 'node_gone'))
);
-- One call at a time on a conversation, whichever nodes its customer's tabs reach.
CREATE UNIQUE INDEX person_calls_one_open ON person_calls (conversation_id) WHERE ended_at IS NULL;
CREATE INDEX person_calls_open ON person_calls (customer_node, person_node) WHERE ended_at IS NULL;
