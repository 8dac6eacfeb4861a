-- Housekeeping forgets engine events by when they were seen (bff/housekeeping.ts).
CREATE INDEX IF NOT EXISTS engine_events_seen_by_time ON engine_events_seen (seen_at);
