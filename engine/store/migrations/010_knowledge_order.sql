-- The knowledge base's order is the order its documents were added in. It was created_at, then the
-- id: created_at holds milliseconds, and documents added within one (an import, a seed) came out in
-- the order of their random ids. Documents kept before keep the order they had.
ALTER TABLE knowledge_documents ADD COLUMN position bigint;
UPDATE knowledge_documents AS d SET position = o.n
FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM knowledge_documents) AS o
WHERE o.id = d.id;
CREATE SEQUENCE knowledge_documents_position OWNED BY knowledge_documents.position;
SELECT setval('knowledge_documents_position', coalesce((SELECT max(position) FROM knowledge_documents), 0) + 1, false);
ALTER TABLE knowledge_documents
  ALTER COLUMN position SET DEFAULT nextval('knowledge_documents_position'),
  ALTER COLUMN position SET NOT NULL;
CREATE INDEX knowledge_by_account_position ON knowledge_documents (account_id, position);
