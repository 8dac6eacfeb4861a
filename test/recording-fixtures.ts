/**
 * Small recordings built byte by byte as their formats lay them out (issue 30): enough structure to be
 * recognised and timed as a real file is, nothing a player would need beyond that.
 */

/** RIFF/WAVE, PCM 16-bit mono: `seconds` of silence at `rate` samples a second. */
export function wavOf(seconds: number, rate = 8_000): Buffer {
  const data = Math.round(seconds * rate) * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28); // byte rate
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

/** One Ogg page (RFC 3533) with one segment; the checksum is left zero (nothing here verifies it). */
function oggPage(granule: bigint, body: Buffer, flags: number): Buffer {
  const page = Buffer.alloc(28);
  page.write('OggS', 0, 'latin1');
  page[5] = flags;
  page.writeBigInt64LE(granule, 6);
  page.writeUInt32LE(1, 14); // serial
  page[26] = 1;
  page[27] = body.length;
  return Buffer.concat([page, body]);
}

/** Ogg/Opus lasting `seconds`: OpusHead (pre-skip 312), OpusTags, one audio page at the final granule. */
export function oggOpusOf(seconds: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(312, 10);
  head.writeUInt32LE(48_000, 12);
  const tags = Buffer.from('OpusTags\x06\x00\x00\x00parley\x00\x00\x00\x00', 'latin1');
  return Buffer.concat([
    oggPage(0n, head, 2),
    oggPage(0n, tags, 0),
    oggPage(BigInt(Math.round(seconds * 48_000) + 312), Buffer.from([0xfc, 0xff, 0xfe]), 4),
  ]);
}

/** An EBML element: its id, a one-byte size (bodies under 127 bytes), its body. */
const ebml = (id: number[], body: Buffer) => Buffer.concat([Buffer.from([...id, 0x80 | body.length]), body]);

/** WebM as a browser's MediaRecorder writes it: EBML header, Segment with Tracks (Opus, and VP8 for video), no Duration unless given. */
export function webmOf(kind: 'audio' | 'video', seconds?: number): Buffer {
  const header = ebml([0x1a, 0x45, 0xdf, 0xa3], Buffer.concat([ebml([0x42, 0x82], Buffer.from('webm'))]));
  const duration = Buffer.alloc(8);
  duration.writeDoubleBE((seconds ?? 0) * 1000);
  const info = ebml(
    [0x15, 0x49, 0xa9, 0x66],
    Buffer.concat([
      ebml([0x2a, 0xd7, 0xb1], Buffer.from([0x0f, 0x42, 0x40])),
      ...(seconds === undefined ? [] : [ebml([0x44, 0x89], duration)]),
    ]),
  );
  const track = (number: number, type: number, codec: string) =>
    ebml(
      [0xae],
      Buffer.concat([
        ebml([0xd7], Buffer.from([number])),
        ebml([0x83], Buffer.from([type])),
        ebml([0x86], Buffer.from(codec)),
      ]),
    );
  const tracks = ebml(
    [0x16, 0x54, 0xae, 0x6b],
    Buffer.concat([track(1, 2, 'A_OPUS'), ...(kind === 'video' ? [track(2, 1, 'V_VP8')] : [])]),
  );
  // Segment of unknown size, as a live recording has.
  const segment = Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  return Buffer.concat([header, segment, info, tracks, Buffer.alloc(64)]);
}

const box = (type: string, ...bodies: Buffer[]) => {
  const body = Buffer.concat(bodies);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};

/** MP4 (ISO BMFF): ftyp with `brand`, moov with mvhd (timescale 1000) and one trak per handler ('soun', 'vide'). */
export function mp4Of(brand: string, handlers: string[], seconds: number): Buffer {
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(Math.round(seconds * 1000), 16);
  const hdlr = (handler: string) => {
    const body = Buffer.alloc(25);
    body.write(handler, 8, 'latin1');
    return box('hdlr', body);
  };
  const traks = handlers.map((handler) => box('trak', box('mdia', hdlr(handler))));
  return Buffer.concat([
    box('ftyp', Buffer.from(`${brand}\x00\x00\x02\x00isommp42`, 'latin1')),
    box('moov', box('mvhd', mvhd), ...traks),
    box('mdat', Buffer.alloc(32)),
  ]);
}

/** MP3: an ID3v2 tag, then `frames` MPEG-1 Layer III frames at 128 kb/s, 44.1 kHz (417 bytes, 26 ms each). */
export function mp3Of(frames: number): Buffer {
  const tag = Buffer.from([0x49, 0x44, 0x33, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, ...new Array(10).fill(0)]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([tag, ...new Array(frames).fill(frame)]);
}
