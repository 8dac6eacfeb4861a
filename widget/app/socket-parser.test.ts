import { describe, expect, it } from 'vitest';
import * as upstream from 'socket.io-parser';
import { Decoder, Encoder, PacketType, protocol, type Packet } from './socket-parser.ts';

/** The packets the widget and the console exchange, in every shape the protocol gives them. */
const PACKETS: Packet[] = [
  { type: PacketType.CONNECT, nsp: '/widget', data: { token: 'wst_abc' } },
  { type: PacketType.CONNECT, nsp: '/widget', data: { sid: 'x1', pid: 'y2' } },
  { type: PacketType.CONNECT, nsp: '/', data: {} },
  { type: PacketType.DISCONNECT, nsp: '/widget' },
  { type: PacketType.EVENT, nsp: '/widget', data: ['message:created', { id: 7, text: 'Hello, "world" — ٣ 日本 ,1[' }] },
  { type: PacketType.EVENT, nsp: '/widget', id: 12, data: ['read:mark', { conversation_id: 'c', last_read_id: 3 }] },
  { type: PacketType.EVENT, nsp: '/', data: ['ping'] },
  { type: PacketType.ACK, nsp: '/widget', id: 12, data: [{ ok: true }] },
  { type: PacketType.ACK, nsp: '/desk', id: 0, data: [] },
  { type: PacketType.CONNECT_ERROR, nsp: '/widget', data: { message: 'unauthorized', data: { code: 'unauthorized' } } },
  { type: PacketType.CONNECT_ERROR, nsp: '/widget', data: 'Invalid namespace' },
];

const decodeWith = (
  decoder: { add(frame: unknown): void; on(event: 'decoded', listener: (packet: Packet) => void): unknown },
  frame: unknown,
): Packet[] => {
  const decoded: Packet[] = [];
  decoder.on('decoded', (packet) => decoded.push(packet));
  decoder.add(frame);
  return decoded;
};

describe("the widget's text-only Socket.IO parser", () => {
  it('speaks protocol 5 with the same packet type numbers as socket.io-parser', () => {
    expect(protocol).toBe(upstream.protocol);
    for (const [name, value] of Object.entries(PacketType))
      expect(upstream.PacketType[name as keyof typeof upstream.PacketType]).toBe(value);
  });

  it('writes every packet exactly as socket.io-parser does, and reads back what socket.io-parser writes', () => {
    for (const packet of PACKETS) {
      const ours = new Encoder().encode(packet);
      expect(ours).toEqual(new upstream.Encoder().encode(packet as upstream.Packet));
      const [frame] = new upstream.Encoder().encode(packet as upstream.Packet);
      const [read] = decodeWith(new Decoder(), frame);
      const [theirs] = decodeWith(new upstream.Decoder() as never, frame);
      expect(read).toEqual(theirs);
      expect(read).toEqual({ ...packet, nsp: packet.nsp });
    }
  });

  it('refuses what no server of ours sends: binary packets (socket.io-parser would wait for their parts) and an empty frame', () => {
    expect(() => new Decoder().add('')).toThrow();
    expect(() => new Decoder().add(new Uint8Array([1, 2, 3]))).toThrow('binary');
    expect(() => new Decoder().add('51-/widget,["upload",{"_placeholder":true,"num":0}]')).toThrow();
    expect(() => new Decoder().add('61-/widget,0[{"_placeholder":true,"num":0}]')).toThrow();
  });

  it('refuses unknown types, broken JSON and payloads of the wrong shape, as socket.io-parser does', () => {
    const refused = [
      '9/widget,[]',
      '2/widget,["message:created",{',
      '2/widget,["connect"]',
      '2/widget,{"not":"an array"}',
      '0/widget,"a string"',
      '1/widget,{}',
      '3/widget,1{"ack":"object"}',
    ];
    for (const frame of refused) {
      expect(() => new Decoder().add(frame), frame).toThrow();
      expect(() => new upstream.Decoder().add(frame), `socket.io-parser: ${frame}`).toThrow();
    }
  });

  it('takes a namespace without its comma at the end of a frame, as socket.io-parser does', () => {
    const [read] = decodeWith(new Decoder(), '1/widget');
    expect(read).toEqual({ type: PacketType.DISCONNECT, nsp: '/widget' });
    expect(decodeWith(new upstream.Decoder() as never, '1/widget')[0]).toEqual(read);
  });
});
