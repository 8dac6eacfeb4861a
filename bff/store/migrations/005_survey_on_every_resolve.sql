-- Every resolve now asks for a rating with a survey question (content_type 'input_csat'), and a
-- survey locks 14 days after that question. Conversations resolved before this had a question only
-- when a Client API client resolved them; the others get one, dated when they were resolved.
INSERT INTO messages (conversation_id, author, text, content_type, created_at)
SELECT c.id, 'system', 'Please rate this conversation.', 'input_csat', c.updated_at
FROM conversations c JOIN inboxes i ON i.id = c.inbox_id
WHERE c.status = 'resolved' AND i.survey_enabled
  AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.content_type = 'input_csat');
