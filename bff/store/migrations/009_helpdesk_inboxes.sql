-- Inboxes managed through the Application API: a number for each site key (to list and revoke it
-- without showing it again), the away message, and the people who answer each inbox.
ALTER TABLE site_keys ADD COLUMN id serial UNIQUE;
ALTER TABLE inboxes ADD COLUMN out_of_office_message text NOT NULL DEFAULT '';

CREATE TABLE inbox_members (
  inbox_id text NOT NULL REFERENCES inboxes (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (inbox_id, user_id)
);
