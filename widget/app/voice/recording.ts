/**
 * The microphone and MediaRecorder behind a voice note: the first container the browser can record
 * (Chrome and Firefox: WebM or Ogg with Opus; Safari: MP4 with AAC), and the note as a file named
 * for its kind, so the attach tray and the BFF take it as they take a picked file.
 */
export const RECORDING_TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4'];

/** Where a voice note stops by itself: the BFF's and the engine's limit for audio (five minutes). */
export const MAX_SECONDS = 300;

const EXTENSIONS: Record<string, string> = { 'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/mp4': 'm4a' };

/** The first type of RECORDING_TYPES this browser records, or undefined (the browser picks then). */
export function recordingType(supported: (type: string) => boolean): string | undefined {
  return RECORDING_TYPES.find((type) => supported(type));
}

/** The recorded chunks as one file: its type without the codec (what SENDABLE_TYPES lists), named by the time. */
export function noteFile(chunks: Blob[], recordedType: string, now = new Date()): File {
  const type = recordedType.split(';')[0]!.trim() || 'audio/webm';
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return new File(chunks, `voice-note-${stamp}.${EXTENSIONS[type] ?? 'webm'}`, { type });
}

/** A timer's text: 0:07, 1:42, 5:00. */
export function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export interface Recording {
  /** Stops and hands back the note as a file. */
  finish(): Promise<File>;
  /** Stops and throws the note away. */
  cancel(): void;
}

/** Asks for the microphone (rejects when refused) and starts recording. */
export async function startRecording(): Promise<Recording> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const type = recordingType((candidate) => MediaRecorder.isTypeSupported(candidate));
  const recorder = new MediaRecorder(stream, type ? { mimeType: type } : {});
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size) chunks.push(event.data);
  };
  const release = () => stream.getTracks().forEach((track) => track.stop());
  recorder.start();
  return {
    finish: () =>
      new Promise<File>((resolve) => {
        recorder.onstop = () => {
          release();
          resolve(noteFile(chunks, recorder.mimeType || type || 'audio/webm'));
        };
        recorder.stop();
      }),
    cancel() {
      recorder.onstop = release;
      if (recorder.state !== 'inactive') recorder.stop();
      else release();
    },
  };
}
