-- Voice notes and videos (issue 30): a recording's length in seconds, when its bytes state it
-- (shared/server/audio-video.ts). Their transcript goes in `text`, as what a model read in a photo does.
ALTER TABLE media ADD COLUMN duration_s double precision;
