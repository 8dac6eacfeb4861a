/**
 * Voice notes and videos (issue 30), recognised by their bytes as images are: Ogg/Opus, WebM (audio
 * when its tracks are audio only), MP4 (audio for the M4A brands or without a video track), MP3 and
 * WAV. The duration is read where it is cheap and exact (WAV's header, Ogg's last granule position,
 * MP4's movie header, WebM's Info/Duration) and estimated for MP3 from its first frame's bitrate; a
 * recording that does not state it (a browser's live WebM, a fragmented MP4) is bounded by its size cap.
 */
export const AUDIO_TYPES = ['audio/ogg', 'audio/webm', 'audio/mp4', 'audio/mpeg', 'audio/wav'] as const;
export const VIDEO_TYPES = ['video/mp4', 'video/webm'] as const;
export type AudioVideoType = (typeof AUDIO_TYPES)[number] | (typeof VIDEO_TYPES)[number];

/** What the bytes say of a recording: its type and, when they state it, its length in seconds. */
export interface AudioVideoFacts {
  type: AudioVideoType;
  durationS?: number;
}

/**
 * Caps per kind: a voice note of five minutes is long (Opus at 32 kb/s: 1.2 MB; WAV at 16 kHz mono:
 * 9.6 MB); a video of three minutes from a phone fits in 50 MB once compressed. The route's own
 * limit (MEDIA_MAX_BYTES, ATTACHMENTS_MAX_BYTES) still applies when it is lower.
 */
export const MEDIA_KIND_CAPS = {
  audio: { bytes: 10 * 1024 * 1024, seconds: 300 },
  video: { bytes: 50 * 1024 * 1024, seconds: 180 },
} as const;

export const kindOf = (type: string): 'audio' | 'video' | undefined =>
  type.startsWith('audio/') ? 'audio' : type.startsWith('video/') ? 'video' : undefined;

/** What a file of this type is to the people and APIs that show it (Chatwoot's `file_type`). */
export function attachmentKind(type: string): 'image' | 'file' | 'audio' | 'video' {
  if (type === 'application/pdf') return 'file';
  return kindOf(type) ?? 'image';
}

/** The recording `bytes` hold, or undefined when they are none of AUDIO_TYPES and VIDEO_TYPES. */
export function sniffAudioVideo(bytes: Buffer): AudioVideoFacts | undefined {
  const head = bytes.toString('latin1', 0, 4);
  if (head === 'OggS') return ogg(bytes);
  if (head === '\x1a\x45\xdf\xa3') return webm(bytes);
  if (bytes.toString('latin1', 4, 8) === 'ftyp') return mp4(bytes);
  if (head === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE') return wav(bytes);
  return mp3(bytes);
}

const withDuration = (type: AudioVideoType, seconds: number | undefined): AudioVideoFacts =>
  seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? { type, durationS: seconds } : { type };

/** RFC 7845: the first page carries OpusHead; the last page's granule position counts 48 kHz samples. */
function ogg(bytes: Buffer): AudioVideoFacts | undefined {
  const opusHead = bytes.indexOf('OpusHead', 0, 'latin1');
  if (opusHead < 0 || opusHead > 200 || bytes.length < opusHead + 12) return undefined;
  const preSkip = bytes.readUInt16LE(opusHead + 10);
  const last = bytes.lastIndexOf('OggS', bytes.length - 4, 'latin1');
  if (last < 0 || last + 14 > bytes.length) return { type: 'audio/ogg' };
  const granule = Number(bytes.readBigInt64LE(last + 6));
  return withDuration('audio/ogg', (granule - preSkip) / 48_000);
}

/** How far into a WebM the track entries and the Info element are looked for (a recorder writes them first). */
const WEBM_HEAD = 64 * 1024;

/** Matroska/WebM: DocType "webm"; video when a track's CodecID is a video codec, audio for Opus or Vorbis alone. */
function webm(bytes: Buffer): AudioVideoFacts | undefined {
  const head = bytes.subarray(0, WEBM_HEAD);
  // DocType (0x4282) with a one-byte size of 4, in the EBML header.
  if (head.subarray(0, 64).indexOf(Buffer.from([0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d])) < 0) return undefined;
  const seconds = webmDuration(head);
  if (/V_(VP8|VP9|AV1|MPEG4)/.test(head.toString('latin1'))) return withDuration('video/webm', seconds);
  if (/A_(OPUS|VORBIS)/.test(head.toString('latin1'))) return withDuration('audio/webm', seconds);
  return undefined;
}

/** Info/Duration (0x4489, a float) in units of TimecodeScale (0x2AD7B1, nanoseconds; 1 ms by default). */
function webmDuration(head: Buffer): number | undefined {
  const at = head.indexOf(Buffer.from([0x44, 0x89]));
  if (at < 0) return undefined;
  const size = head[at + 2];
  const scaleAt = head.indexOf(Buffer.from([0x2a, 0xd7, 0xb1]));
  const scale = scaleAt >= 0 && head[scaleAt + 3] === 0x83 ? head.readUIntBE(scaleAt + 4, 3) : 1_000_000;
  if (size === 0x84 && at + 7 <= head.length) return (head.readFloatBE(at + 3) * scale) / 1e9;
  if (size === 0x88 && at + 11 <= head.length) return (head.readDoubleBE(at + 3) * scale) / 1e9;
  return undefined;
}

/** ISO/IEC 14496-12: the M4A brands are audio; otherwise the movie's handlers say whether a video track is there. */
function mp4(bytes: Buffer): AudioVideoFacts | undefined {
  const brand = bytes.toString('latin1', 8, 12);
  const moov = topLevelBox(bytes, 'moov');
  const seconds = moov && movieDuration(moov);
  if (['M4A ', 'M4B ', 'F4A '].includes(brand)) return withDuration('audio/mp4', seconds);
  if (!moov) return /^(isom|iso[2-9]|mp4[12]|avc1|dash|MSNV|3gp[4-6])$/.test(brand) ? { type: 'video/mp4' } : undefined;
  const handlers = handlerTypes(moov);
  if (handlers.includes('vide')) return withDuration('video/mp4', seconds);
  if (handlers.includes('soun')) return withDuration('audio/mp4', seconds);
  return undefined;
}

/** The body of the first top-level box of this type, walking the boxes by their sizes. */
function topLevelBox(bytes: Buffer, type: string): Buffer | undefined {
  let at = 0;
  while (at + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(at);
    let header = 8;
    if (size === 1 && at + 16 <= bytes.length) {
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = bytes.length - at;
    if (size < header) return undefined;
    if (bytes.toString('latin1', at + 4, at + 8) === type) return bytes.subarray(at + header, at + size);
    at += size;
  }
  return undefined;
}

/** mvhd: duration over timescale (version 0: 32-bit fields; version 1: 64-bit times). */
function movieDuration(moov: Buffer): number | undefined {
  const at = moov.indexOf('mvhd', 0, 'latin1');
  if (at < 0) return undefined;
  const version = moov[at + 4];
  // After the type: version and flags (4), creation and modification times, the timescale, the duration.
  if (version === 0 && at + 24 <= moov.length) return moov.readUInt32BE(at + 20) / moov.readUInt32BE(at + 16);
  if (version === 1 && at + 36 <= moov.length)
    return Number(moov.readBigUInt64BE(at + 28)) / moov.readUInt32BE(at + 24);
  return undefined;
}

/** The handler_type of every hdlr box in the movie ('vide', 'soun', …). */
function handlerTypes(moov: Buffer): string[] {
  const found: string[] = [];
  for (let at = moov.indexOf('hdlr', 0, 'latin1'); at >= 0; at = moov.indexOf('hdlr', at + 4, 'latin1')) {
    if (at + 16 <= moov.length) found.push(moov.toString('latin1', at + 12, at + 16));
  }
  return found;
}

/** RIFF/WAVE: the fmt chunk's byte rate and the data chunk's size give the length exactly. */
function wav(bytes: Buffer): AudioVideoFacts | undefined {
  let at = 12;
  let byteRate: number | undefined;
  let dataSize: number | undefined;
  while (at + 8 <= bytes.length && (byteRate === undefined || dataSize === undefined)) {
    const id = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 20 <= bytes.length) byteRate = bytes.readUInt32LE(at + 16);
    if (id === 'data') dataSize = Math.min(size, bytes.length - at - 8);
    at += 8 + size + (size % 2);
  }
  if (!byteRate || dataSize === undefined) return undefined;
  return withDuration('audio/wav', dataSize / byteRate);
}

const MP3_BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MP3_RATES = { 3: [44_100, 48_000, 32_000], 2: [22_050, 24_000, 16_000], 0: [11_025, 12_000, 8_000] } as const;

/** An MPEG audio Layer III frame header at `at`: its bitrate (bits/s) and its length in bytes. */
function mp3Frame(bytes: Buffer, at: number): { bitrate: number; length: number } | undefined {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return undefined;
  const version = (bytes[at + 1]! >> 3) & 3;
  const layer = (bytes[at + 1]! >> 1) & 3;
  const bitrateIndex = bytes[at + 2]! >> 4;
  const rateIndex = (bytes[at + 2]! >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const bitrate = (version === 3 ? MP3_BITRATES_V1 : MP3_BITRATES_V2)[bitrateIndex]! * 1000;
  const rate = MP3_RATES[version as 0 | 2 | 3][rateIndex]!;
  const padding = (bytes[at + 2]! >> 1) & 1;
  return { bitrate, length: Math.floor(((version === 3 ? 144 : 72) * bitrate) / rate) + padding };
}

/**
 * MP3: after an ID3v2 tag (its size is four 7-bit bytes), two frame headers in a row (one alone
 * could be chance). Its length is estimated from the first frame's bitrate, as for a constant rate.
 */
function mp3(bytes: Buffer): AudioVideoFacts | undefined {
  let at = 0;
  if (bytes.toString('latin1', 0, 3) === 'ID3' && bytes.length >= 10) {
    at = 10 + ((bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!);
  }
  const first = mp3Frame(bytes, at);
  if (!first || !mp3Frame(bytes, at + first.length)) return undefined;
  return withDuration('audio/mpeg', ((bytes.length - at) * 8) / first.bitrate);
}
