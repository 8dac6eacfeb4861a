import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { refusalCode } from '../../shared/handshake.ts';
import { DRIVERS } from '../../test/stack.ts';
import { newClientAddress, useClientApi } from '../../test/client-api-fixture.ts';
import { CLIENT_SOCKETS_PER_ADDRESS, CLIENT_SOCKETS_PER_TOKEN } from './socket-admission.ts';

/**
 * Issue 33: `/client` (the Client API's socket) took 60 of 60 sockets on one pubsub_token, and
 * took them from origins the inbox does not list. Each attack over real Socket.IO.
 */
describe('the /client socket refuses what its HTTP routes refuse', () => {
  const api = useClientApi(DRIVERS[0]!);
  let sockets: Socket[] = [];
  afterEach(() => {
    for (const socket of sockets) socket.close();
    sockets = [];
  });

  /** Connects with `pubsub_token` from `address` (and an Origin when given): 'connected' or the refusal's code. */
  async function connect(pubsubToken: string, address: string, origin?: string): Promise<string | undefined> {
    const socket = io(`${api.stack.url}/client`, {
      auth: { pubsub_token: pubsubToken },
      transports: ['websocket'],
      reconnection: false,
      localAddress: address,
      ...(origin ? { extraHeaders: { origin } } : {}),
    } as Parameters<typeof io>[1]);
    sockets.push(socket);
    return new Promise((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error) => resolve(refusalCode(error)));
    });
  }

  it(`holds one pubsub_token to ${CLIENT_SOCKETS_PER_TOKEN} open sockets, and lets one in again when one closes`, async () => {
    const contact = await api.createContact({ name: 'Many tabs' });
    const address = newClientAddress();
    for (let index = 0; index < CLIENT_SOCKETS_PER_TOKEN; index++)
      expect(await connect(contact.pubsub_token, address)).toBe('connected');
    expect(await connect(contact.pubsub_token, address)).toBe('rate_limited');
    expect(await connect(contact.pubsub_token, newClientAddress())).toBe('rate_limited');
    sockets[0]!.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await connect(contact.pubsub_token, address)).toBe('connected');
  });

  it(`holds one address to ${CLIENT_SOCKETS_PER_ADDRESS} open sockets over all its tokens`, async () => {
    const address = newClientAddress();
    const contacts = [];
    for (let index = 0; index <= CLIENT_SOCKETS_PER_ADDRESS / CLIENT_SOCKETS_PER_TOKEN; index++)
      contacts.push(await api.createContact({ name: `Office ${index}` }));
    const opened = await Promise.all(
      contacts
        .slice(0, -1)
        .flatMap((contact) =>
          Array.from({ length: CLIENT_SOCKETS_PER_TOKEN }, () => connect(contact.pubsub_token, address)),
        ),
    );
    expect(opened.every((result) => result === 'connected')).toBe(true);
    expect(await connect(contacts.at(-1)!.pubsub_token, address)).toBe('rate_limited');
    expect(await connect(contacts.at(-1)!.pubsub_token, newClientAddress())).toBe('connected');
  });

  it('refuses a browser from an origin the inbox does not list with origin_not_allowed; its listed origin and a client without one connect', async () => {
    const inbox = await api.newInbox({ name: 'Listed origins' }, { allowedOrigins: ['https://shop.example'] });
    const contact = await api.createContact({ name: 'Browser' }, inbox.identifier);
    const address = newClientAddress();
    expect(await connect(contact.pubsub_token, address, 'https://evil.example')).toBe('origin_not_allowed');
    expect(await connect(contact.pubsub_token, address, 'http://shop.example')).toBe('origin_not_allowed');
    expect(await connect(contact.pubsub_token, address, 'https://shop.example')).toBe('connected');
    expect(await connect(contact.pubsub_token, address)).toBe('connected');
    // An inbox without a list takes any origin, as its HTTP routes do.
    const open = await api.createContact({ name: 'Anywhere' });
    expect(await connect(open.pubsub_token, address, 'https://anywhere.example')).toBe('connected');
  });
});
