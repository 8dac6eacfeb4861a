-- A customer's identity ended as a whole (the widget's shutdown): every token of it issued until
-- then stops working, and a visitor's expired token no longer renews it. Kept until no such token
-- could be renewed any more (the visitor lifetime), then forgotten.
CREATE TABLE revoked_identities (
  inbox_id text NOT NULL,
  customer_ref text NOT NULL,
  revoked_at timestamptz NOT NULL,
  PRIMARY KEY (inbox_id, customer_ref)
);
CREATE INDEX revoked_identities_by_time ON revoked_identities (revoked_at);
