-- With several BFF nodes, one node at a time forwards a conversation's outbox to the engine, so its
-- messages arrive there in order. The node holds a lease on the conversation row while it drains.
ALTER TABLE conversations ADD COLUMN relay_owner text;
ALTER TABLE conversations ADD COLUMN relay_lease_until timestamptz;
