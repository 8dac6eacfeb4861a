-- The language each knowledge document is written in (a tag such as `de` or `pt-BR`): the retrieval
-- brain indexes the documents per language (issue 28). Documents kept before were all English; a
-- row written without one (not through engine/store/knowledge.ts) reads as English too.
ALTER TABLE knowledge_documents ADD COLUMN locale text NOT NULL DEFAULT 'en';
