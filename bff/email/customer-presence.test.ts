import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_NAMESPACE } from '../../shared/index.ts';
import { customerRoom } from '../widget/socket.ts';
import { customerPresence } from './customer-presence.ts';

/**
 * The presence check on a Socket.IO server of its own: a tab joins its customer's room as the
 * widget's namespace makes it (the BFF's handshake is tested with the widget socket; here only the
 * rooms matter).
 */
describe('whether a customer has the chat open', () => {
  const http = createServer();
  const io = new Server(http);
  let url: string;

  beforeAll(async () => {
    io.of(WIDGET_NAMESPACE).on('connection', (socket) => {
      void socket.join(customerRoom('inbox-1', String(socket.handshake.auth['customerRef'])));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await io.close();
  });

  it('is true while a tab of that customer is connected, and false for another customer and after it closed', async () => {
    const present = customerPresence(io);
    const tab = connect(url + WIDGET_NAMESPACE, { auth: { customerRef: 'vis_ann' }, transports: ['websocket'] });
    await new Promise<void>((resolve) => tab.once('connect', () => resolve()));
    expect(await present({ inboxId: 'inbox-1', customerRef: 'vis_ann' })).toBe(true);
    expect(await present({ inboxId: 'inbox-1', customerRef: 'vis_bob' })).toBe(false);
    expect(await present({ inboxId: 'inbox-2', customerRef: 'vis_ann' })).toBe(false);
    tab.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await present({ inboxId: 'inbox-1', customerRef: 'vis_ann' })).toBe(false);
  });
});
