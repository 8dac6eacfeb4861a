-- An account made before accounts had engine accounts of their own, moved to one later
-- (`npm run bff:accounts -- move-engine`, bff/engine-link/engine-account-moves.ts): when it was.
-- NULL for an account that had its own engine account from the start.
ALTER TABLE engine_accounts ADD COLUMN moved_at timestamptz;
