import { describe, expect, it } from 'vitest';
import { clock, noteFile, recordingType, RECORDING_TYPES } from './recording.ts';

describe('voice note recording', () => {
  it('records in the first type the browser supports: Opus in WebM, then in Ogg, then MP4 (Safari)', () => {
    expect(recordingType(() => true)).toBe('audio/webm;codecs=opus');
    expect(recordingType((type) => type.startsWith('audio/ogg'))).toBe('audio/ogg;codecs=opus');
    expect(recordingType((type) => type === 'audio/mp4')).toBe('audio/mp4');
    expect(recordingType(() => false)).toBeUndefined();
    expect(RECORDING_TYPES).toHaveLength(3);
  });

  it('names the note by its time and kind, with a type the attach tray sends (no codec)', () => {
    const at = new Date('2026-11-27T09:05:07Z');
    const webm = noteFile([new Blob(['x'])], 'audio/webm;codecs=opus', at);
    expect(webm).toMatchObject({ name: 'voice-note-20261127-090507.webm', type: 'audio/webm' });
    expect(noteFile([], 'audio/mp4', at)).toMatchObject({ name: 'voice-note-20261127-090507.m4a', type: 'audio/mp4' });
    expect(noteFile([], 'audio/ogg; codecs=opus', at).name).toMatch(/\.ogg$/);
  });

  it('shows the time recorded as minutes and seconds', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(7)).toBe('0:07');
    expect(clock(102)).toBe('1:42');
    expect(clock(300)).toBe('5:00');
  });
});
