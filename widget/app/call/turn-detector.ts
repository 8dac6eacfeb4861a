/**
 * Where the customer's turns begin and end in the microphone's sound (issue 30), by its loudness:
 * speech is START_MS of blocks at least as loud as the threshold (a click or a beep is not), and
 * a turn ends after END_MS of quiet (or at MAX_MS). A turn keeps PREROLL_MS from before it was
 * heard, so that its first sound is not cut. While the AI speaks, the caller raises the threshold,
 * so that its own voice coming back through the microphone does not interrupt it.
 */
const START_MS = 150;
const END_MS = 800;
const MAX_MS = 30_000;
const PREROLL_MS = 300;
/** A turn shorter than this (of loud blocks) is a noise, not words. */
const MIN_VOICED_MS = 300;

export interface TurnEvents {
  /** The customer began to speak: the AI stops talking (barge-in). */
  speaking(): void;
  /** A whole turn, its samples at the rate the detector was made with. */
  turn(samples: Float32Array): void;
}

/** How loud a block is: the root of its mean square (0 silent, about 0.7 a full-scale tone). */
export function loudness(block: Float32Array): number {
  let sum = 0;
  for (const sample of block) sum += sample * sample;
  return block.length ? Math.sqrt(sum / block.length) : 0;
}

/** A detector fed block by block (`push`) at `rate` samples a second; `threshold()` is asked at each block. */
export function createTurnDetector(rate: number, events: TurnEvents, threshold: () => number) {
  let blocks: Float32Array[] = [];
  let heldMs = 0;
  let voicedMs = 0;
  let quietMs = 0;
  let speaking = false;
  const msOf = (block: Float32Array) => (block.length / rate) * 1000;

  const reset = () => {
    blocks = [];
    heldMs = voicedMs = quietMs = 0;
    speaking = false;
  };

  const finish = () => {
    const samples = new Float32Array(blocks.reduce((sum, block) => sum + block.length, 0));
    let at = 0;
    for (const block of blocks) {
      samples.set(block, at);
      at += block.length;
    }
    const voiced = voicedMs;
    reset();
    if (voiced >= MIN_VOICED_MS) events.turn(samples);
  };

  return {
    push(block: Float32Array): void {
      const ms = msOf(block);
      const loud = loudness(block) >= threshold();
      blocks.push(block);
      heldMs += ms;
      if (!speaking) {
        voicedMs = loud ? voicedMs + ms : 0;
        if (voicedMs >= START_MS) {
          speaking = true;
          events.speaking();
        }
        // Before speech only the preroll is kept.
        while (!speaking && blocks.length > 1 && heldMs - msOf(blocks[0]!) >= PREROLL_MS)
          heldMs -= msOf(blocks.shift()!);
        return;
      }
      if (loud) {
        voicedMs += ms;
        quietMs = 0;
      } else quietMs += ms;
      if (quietMs >= END_MS || heldMs >= MAX_MS) finish();
    },
    /** Forgets what was heard (muted, or the call went to a person). */
    reset,
  };
}
