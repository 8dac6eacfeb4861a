-- Issue 33. One contact per proved identifier of an inbox: two proved Client API creates of one
-- identifier at the same instant made two contacts, and a proved PATCH could give a second contact
-- an identifier another had proved (the lookup then took the first). A contact that got an
-- identifier so keeps its place and its proof (what it claims still links it to no one) but loses
-- the identifier, which only ever found the first.
UPDATE contacts c SET identifier = NULL
 WHERE c.hmac_verified AND c.identifier IS NOT NULL
   AND EXISTS (SELECT 1 FROM contacts f
                WHERE f.inbox_id = c.inbox_id AND f.identifier = c.identifier AND f.hmac_verified AND f.id < c.id);
CREATE UNIQUE INDEX contacts_proved_identifier ON contacts (inbox_id, identifier) WHERE hmac_verified;

-- Chatwoot's account `settings` (PATCH /api/v1/accounts/{id}): kept as given, shown with the account.
ALTER TABLE accounts ADD COLUMN settings jsonb NOT NULL DEFAULT '{}';
