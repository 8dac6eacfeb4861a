-- Whether an inbox's widget offers calls with its people (issue 30): the Call button shows only
-- while this is on and someone who answers the inbox is available.
ALTER TABLE inboxes ADD COLUMN calls_enabled boolean NOT NULL DEFAULT false;
