-- The customer's language as the widget showed it when the conversation began; passed to the
-- engine with each message, so the AI's own words (not the articles it quotes) use it.
ALTER TABLE conversations ADD COLUMN locale text;
