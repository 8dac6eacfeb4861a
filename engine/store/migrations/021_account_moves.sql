-- An account's conversations moved to an account of their own (POST /operator/v1/accounts/{id}/moves,
-- engine/account-moves.ts): the BFF moves a helpdesk account that the installation's account served
-- to an engine account of its own. `move_reference` names the move, so that a move sent again (after
-- a crash half way) finds the account it made.
ALTER TABLE accounts ADD COLUMN move_reference text UNIQUE;

-- A moved event takes the next numbers of its new account's feed; where it stood in its old feed is
-- kept, so a reader whose cursor names it still reads the old feed on from the right place.
ALTER TABLE events ADD COLUMN moved_from_account text;
ALTER TABLE events ADD COLUMN moved_from_seq bigint;
