import { WebSocket } from 'ws';
import { until } from './until.ts';

/**
 * A raw ActionCable client written the way Chatwoot's Flutter SDK writes its own
 * (chatwoot-flutter-sdk lib/data/remote/service/chatwoot_client_service.dart): a plain WebSocket to
 * `<base>/cable` with no subprotocol unless told, JSON commands with the identifier as a string.
 */
export interface RawCable {
  socket: WebSocket;
  /** Every frame the server sent, parsed, in order. */
  frames: any[];
  /** The close code, once closed. */
  closed: Promise<number>;
  send(frame: unknown): void;
  /** The Flutter SDK's subscribe: `{"channel":"RoomChannel","pubsub_token":…}` as a string. */
  subscribe(pubsubToken: string): string;
  /** The first frame `match` accepts (waiting for it). */
  frame(match: (frame: any) => boolean, what: string): Promise<any>;
  /** The data of the first event of this name that `match` accepts. */
  event(name: string, match: (data: any) => boolean, what: string): Promise<any>;
  /** The data of every event received so far. */
  events(name?: string): { event: string; data: any }[];
  close(): void;
}

export const roomIdentifier = (pubsubToken: string) =>
  JSON.stringify({ channel: 'RoomChannel', pubsub_token: pubsubToken });

export function cableUrl(baseUrl: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}/cable`;
}

/** Opens a connection (resolves once open); `protocols` are offered as the browser's client offers them. */
export async function openRawCable(baseUrl: string, protocols?: string[]): Promise<RawCable> {
  const socket = protocols ? new WebSocket(cableUrl(baseUrl), protocols) : new WebSocket(cableUrl(baseUrl));
  const frames: any[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(data.toString())));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const frame = async (match: (frame: any) => boolean, what: string) =>
    (await until(
      () => frames.find(match),
      (found) => found !== undefined,
      what,
    )) as any;
  const cable: RawCable = {
    socket,
    frames,
    closed,
    send: (value) => socket.send(typeof value === 'string' ? value : JSON.stringify(value)),
    subscribe(pubsubToken) {
      const identifier = roomIdentifier(pubsubToken);
      cable.send({ command: 'subscribe', identifier });
      return identifier;
    },
    frame,
    event: async (name, match, what) =>
      (await frame((found) => found.message?.event === name && match(found.message.data), what)).message.data,
    events: (name) =>
      frames
        .filter((found) => found.message?.event && (name === undefined || found.message.event === name))
        .map((found) => found.message),
    close: () => socket.close(),
  };
  return cable;
}
