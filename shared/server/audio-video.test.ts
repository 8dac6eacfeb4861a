import { describe, expect, it } from 'vitest';
import { ParleyError } from '../errors.ts';
import { mp3Of, mp4Of, oggOpusOf, wavOf, webmOf } from '../../test/recording-fixtures.ts';
import { pngOf } from '../../test/media-fixtures.ts';
import { sniffAudioVideo } from './audio-video.ts';
import { inspectMedia } from './media.ts';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof ParleyError ? error.code : 'not a ParleyError';
  }
}

const MB = 1024 * 1024;

describe('recognising voice notes and videos by their bytes', () => {
  it('recognises WAV, Ogg/Opus, MP3, M4A and audio-only WebM as audio, with their duration', () => {
    expect(sniffAudioVideo(wavOf(3))).toEqual({ type: 'audio/wav', durationS: 3 });
    expect(sniffAudioVideo(oggOpusOf(12.5))).toEqual({ type: 'audio/ogg', durationS: 12.5 });
    expect(sniffAudioVideo(mp4Of('M4A ', ['soun'], 42))).toEqual({ type: 'audio/mp4', durationS: 42 });
    expect(sniffAudioVideo(webmOf('audio', 7))).toEqual({ type: 'audio/webm', durationS: 7 });
    const mp3 = sniffAudioVideo(mp3Of(100));
    expect(mp3?.type).toBe('audio/mpeg');
    // 100 frames of 26 ms: an estimate from the bitrate, within a frame or two.
    expect(mp3?.durationS).toBeCloseTo(2.6, 1);
  });

  it('tells a video from audio by its tracks or brand: MP4 with a video handler, WebM with a VP8 track', () => {
    expect(sniffAudioVideo(mp4Of('isom', ['vide', 'soun'], 30))).toEqual({ type: 'video/mp4', durationS: 30 });
    expect(sniffAudioVideo(mp4Of('isom', ['soun'], 30))).toEqual({ type: 'audio/mp4', durationS: 30 });
    expect(sniffAudioVideo(webmOf('video'))).toEqual({ type: 'video/webm' });
  });

  it("leaves a browser's live recording without a stated duration to its size cap", () => {
    expect(sniffAudioVideo(webmOf('audio'))).toEqual({ type: 'audio/webm' });
  });

  it('refuses what only looks like a recording: text named .ogg, an Ogg without Opus, a lone MPEG sync, a WAV without data', () => {
    const text = Buffer.from('this is not audio, whatever its name says');
    expect(codeOf(() => inspectMedia(text))).toBe('unsupported_media_type');
    expect(sniffAudioVideo(Buffer.from('OggS\0\x02' + 'x'.repeat(80) + '\x01vorbis'))).toBeUndefined();
    expect(sniffAudioVideo(Buffer.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3, 4]))).toBeUndefined();
    expect(sniffAudioVideo(wavOf(1).subarray(0, 36))).toBeUndefined();
    expect(sniffAudioVideo(pngOf(10, 10))).toBeUndefined();
  });
});

describe('caps on voice notes and videos', () => {
  it('refuses a voice note over five minutes (422) and a video over three (422), however small', () => {
    expect(codeOf(() => inspectMedia(oggOpusOf(301)))).toBe('unprocessable');
    expect(codeOf(() => inspectMedia(wavOf(300)))).toBe(undefined);
    expect(codeOf(() => inspectMedia(mp4Of('mp42', ['vide'], 181), 60 * MB))).toBe('unprocessable');
    expect(codeOf(() => inspectMedia(mp4Of('mp42', ['vide'], 179), 60 * MB))).toBe(undefined);
  });

  it('refuses an audio file over 10 MB (413) even where the route takes larger files', () => {
    const big = Buffer.concat([webmOf('audio'), Buffer.alloc(10 * MB)]);
    expect(codeOf(() => inspectMedia(big, 50 * MB))).toBe('payload_too_large');
    expect(codeOf(() => inspectMedia(Buffer.concat([webmOf('video'), Buffer.alloc(10 * MB)]), 50 * MB))).toBe(
      undefined,
    );
  });

  it('gives the type, the size and the duration for a note within its caps', () => {
    const note = oggOpusOf(4);
    expect(inspectMedia(note)).toEqual({ type: 'audio/ogg', size: note.length, durationS: 4 });
  });
});
