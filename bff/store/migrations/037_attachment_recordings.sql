-- Voice notes and videos (issue 30): attachments may be recordings too, recognised by their bytes
-- as images are (shared/server/audio-video.ts).
ALTER TABLE attachments DROP CONSTRAINT attachments_content_type_check;
ALTER TABLE attachments ADD CONSTRAINT attachments_content_type_check CHECK (content_type IN (
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf',
  'audio/ogg', 'audio/webm', 'audio/mp4', 'audio/mpeg', 'audio/wav', 'video/mp4', 'video/webm'
));
