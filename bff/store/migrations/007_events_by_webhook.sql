-- When a webhook brought an event (also one seen before in the engine's answer), so the BFF can
-- tell that the engine's pushes work and read the feed only when they go quiet.
ALTER TABLE engine_events_seen ADD COLUMN webhook_at timestamptz;
