-- An installation's operator suspends and resumes accounts over HTTP (/operator/v1/accounts): a
-- suspended account's keys are refused (403 account_suspended) until it is resumed. A deleted
-- account leaves no row behind (engine/account-erasure.ts), so it needs no column.
ALTER TABLE accounts ADD COLUMN suspended_at timestamptz;
