-- People's files (issue 31): an agent attaches a photo or a PDF from the console (or the Application
-- API's multipart attachments[]), checked by its bytes as the widget's are; the customer sees it.
ALTER TABLE attachments DROP CONSTRAINT attachments_uploader_check;
ALTER TABLE attachments ADD CONSTRAINT attachments_uploader_check CHECK (uploader IN ('widget', 'client_api', 'desk'));
