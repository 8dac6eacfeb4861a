import { describe, expect, it } from 'vitest';
import { createTurnDetector } from './turn-detector.ts';
import { resample, wavFile } from './wav.ts';

const RATE = 16_000;
/** `ms` of a 440 Hz tone (loud) or of silence, in blocks of 64 ms. */
function sound(ms: number, loud: boolean): Float32Array[] {
  const blocks: Float32Array[] = [];
  for (let done = 0; done < ms; done += 64) {
    const block = new Float32Array(1024);
    if (loud) block.forEach((_, i) => (block[i] = 0.5 * Math.sin((2 * Math.PI * 440 * (done * 16 + i)) / RATE)));
    blocks.push(block);
  }
  return blocks;
}

function listen(...parts: Float32Array[][]) {
  const heard: string[] = [];
  const turns: Float32Array[] = [];
  const detector = createTurnDetector(
    RATE,
    { speaking: () => heard.push('speaking'), turn: (samples) => (turns.push(samples), heard.push('turn')) },
    () => 0.02,
  );
  for (const block of parts.flat()) detector.push(block);
  return { heard, turns };
}

describe('the turns of a call with the AI', () => {
  it('hears a spoken turn once the quiet after it is long enough, with a little from before it', () => {
    const { heard, turns } = listen(sound(1000, false), sound(1500, true), sound(1000, false));
    expect(heard).toEqual(['speaking', 'turn']);
    const seconds = turns[0]!.length / RATE;
    // The words, the preroll before them and the quiet that ended them.
    expect(seconds).toBeGreaterThan(2.3);
    expect(seconds).toBeLessThan(2.8);
  });

  it('takes short beeps and clicks for no speech', () => {
    const beeps = Array.from({ length: 10 }, () => [...sound(64, true), ...sound(448, false)]);
    expect(listen(...beeps).heard).toEqual([]);
  });

  it('keeps a turn going over short pauses', () => {
    const { heard } = listen(sound(600, true), sound(400, false), sound(600, true), sound(1000, false));
    expect(heard).toEqual(['speaking', 'turn']);
  });
});

describe('a turn as a WAV file', () => {
  it('states its own length in its header, as the engine needs to take it as a whole turn', () => {
    const file = new DataView(wavFile(resample(new Float32Array(48_000), 48_000, RATE), RATE));
    expect(file.byteLength).toBe(44 + RATE * 2);
    expect(file.getUint32(4, true) + 8).toBe(file.byteLength);
    expect(file.getUint32(24, true)).toBe(RATE);
  });
});
