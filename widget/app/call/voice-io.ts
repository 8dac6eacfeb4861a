/**
 * The sound of a call with the AI in the browser (issue 30): the microphone cut into turns
 * (turn-detector.ts), each sent as a WAV file (wav.ts), and the AI's speech played piece by piece,
 * stopped at once when the customer talks over it. A ScriptProcessorNode reads the microphone: it
 * is old, but every browser has it and it needs no module of its own, as an AudioWorklet would.
 */
import { createTurnDetector } from './turn-detector.ts';
import { resample, TURN_RATE, wavFile } from './wav.ts';

/** Loudness that counts as speech; louder while the AI speaks, so that its own voice does not interrupt it. */
const SPEECH = 0.015;
const SPEECH_OVER_THE_AI = 0.06;

export interface VoiceIo {
  /** Plays a piece of the AI's speech (a whole audio file) after the pieces before it. */
  play(audio: ArrayBuffer): Promise<void>;
  /** Stops the AI's speech now. */
  stop(): void;
  mute(muted: boolean): void;
  close(): void;
}

/** Opens the microphone (rejects when refused); `speaking` at each start of speech, `turn` with each turn's WAV. */
export async function openVoiceIo(events: { speaking(): void; turn(wav: ArrayBuffer): void }): Promise<VoiceIo> {
  const microphone = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
  });
  const context = new AudioContext();
  void context.resume();
  const rate = context.sampleRate;
  let playing: AudioBufferSourceNode[] = [];
  let playAt = 0;
  const aiSpeaking = () => context.currentTime < playAt;
  const detector = createTurnDetector(
    rate,
    {
      speaking: events.speaking,
      turn: (samples) => events.turn(wavFile(resample(samples, rate, TURN_RATE), TURN_RATE)),
    },
    () => (aiSpeaking() ? SPEECH_OVER_THE_AI : SPEECH),
  );
  const source = context.createMediaStreamSource(microphone);
  const reader = context.createScriptProcessor(4096, 1, 1);
  let muted = false;
  reader.onaudioprocess = (event) => {
    if (!muted) detector.push(event.inputBuffer.getChannelData(0).slice());
  };
  source.connect(reader);
  // A processor runs only while connected to the output; it writes silence there.
  reader.connect(context.destination);

  const stop = () => {
    for (const node of playing) node.stop();
    playing = [];
    playAt = 0;
  };
  return {
    async play(audio) {
      const buffer = await context.decodeAudioData(audio);
      const node = context.createBufferSource();
      node.buffer = buffer;
      node.connect(context.destination);
      playAt = Math.max(playAt, context.currentTime);
      node.start(playAt);
      playAt += buffer.duration;
      playing.push(node);
      node.onended = () => (playing = playing.filter((other) => other !== node));
    },
    stop,
    mute(value) {
      muted = value;
      for (const track of microphone.getAudioTracks()) track.enabled = !value;
      if (value) detector.reset();
    },
    close() {
      stop();
      reader.disconnect();
      source.disconnect();
      for (const track of microphone.getTracks()) track.stop();
      void context.close();
    },
  };
}
