import { Emitter } from '@socket.io/component-emitter';

/**
 * Socket.IO's packet format (protocol 5), text only, for the browser bundles: a plugin in
 * vite.config.ts puts it in place of the `socket.io-parser` package, whose binary attachments
 * (Blobs, ArrayBuffers split into separate frames) the widget and the console never send or
 * receive. A packet is one text frame:
 *
 *   <type digit>[<namespace>,][<ack id>][<JSON data>]     e.g. `2/widget,["message:created",{…}]`
 *
 * The BFF's server speaks the full protocol and sends these as they are. A binary packet, a
 * malformed one or a payload of the wrong shape for its type is refused as socket.io-parser
 * refuses it (the Manager closes the connection with "parse error" and reconnects).
 *
 * The console's bundle uses it through socket.io-client; the widget's own client
 * (chat/socket-client.ts) uses `encodePacket` and `decodePacket` directly.
 */
export const protocol = 5;

export const PacketType = {
  CONNECT: 0,
  DISCONNECT: 1,
  EVENT: 2,
  ACK: 3,
  CONNECT_ERROR: 4,
  BINARY_EVENT: 5,
  BINARY_ACK: 6,
} as const;
type PacketKind = (typeof PacketType)[keyof typeof PacketType];

export interface Packet {
  type: PacketKind;
  nsp: string;
  id?: number;
  data?: unknown;
}

// Event names a packet may not carry: the client's own events, and Node's emitter's.
const RESERVED = ['connect', 'connect_error', 'disconnect', 'disconnecting', 'newListener', 'removeListener'];
const FRAME = /^([0-4])(?:(\/[^,]*)(?:,|$))?(\d*)([\s\S]*)$/;

const isObject = (value: unknown): boolean => Object.prototype.toString.call(value) === '[object Object]';

/** Whether `data` has the shape a packet of `type` must carry (socket.io-parser's own rules). */
export function validPayload(type: PacketKind, data: unknown): boolean {
  switch (type) {
    case PacketType.CONNECT:
      return isObject(data);
    case PacketType.DISCONNECT:
      return data === undefined;
    case PacketType.CONNECT_ERROR:
      return typeof data === 'string' || isObject(data);
    case PacketType.EVENT:
      return (
        Array.isArray(data) &&
        (typeof data[0] === 'number' || (typeof data[0] === 'string' && !RESERVED.includes(data[0])))
      );
    case PacketType.ACK:
      return Array.isArray(data);
    default:
      return false;
  }
}

/** One packet as its text frame. */
export function encodePacket(packet: Packet): string {
  const namespace = packet.nsp && packet.nsp !== '/' ? `${packet.nsp},` : '';
  return `${packet.type}${namespace}${packet.id ?? ''}${packet.data === undefined ? '' : JSON.stringify(packet.data)}`;
}

export class Encoder {
  /** One text frame per packet. */
  encode(packet: Packet): string[] {
    return [encodePacket(packet)];
  }
}

/** One text frame as a packet; throws on anything socket.io-parser would refuse, and on binary frames. */
export function decodePacket(frame: unknown): Packet {
  if (typeof frame !== 'string') throw new Error('binary packets are not supported');
  const [, type, nsp, id, json] = FRAME.exec(frame) ?? [];
  if (type === undefined) throw new Error(`unknown packet: ${frame.slice(0, 20)}`);
  const packet: Packet = { type: Number(type) as PacketKind, nsp: nsp || '/' };
  if (id) packet.id = Number(id);
  if (json) {
    let data: unknown;
    try {
      data = JSON.parse(json);
    } catch {
      throw new Error('invalid payload');
    }
    if (!validPayload(packet.type, data)) throw new Error('invalid payload');
    packet.data = data;
  }
  return packet;
}

/** Turns frames into packets, emitted as `decoded`; throws on anything it cannot take. */
export class Decoder extends Emitter<
  Record<string, never>,
  Record<string, never>,
  { decoded: (packet: Packet) => void }
> {
  add(frame: unknown): void {
    this.emitReserved('decoded', decodePacket(frame));
  }

  /** Nothing is kept between frames (no binary attachments wait for their parts). */
  destroy(): void {}
}
