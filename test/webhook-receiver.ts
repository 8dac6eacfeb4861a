import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './stack.ts';

/** A real HTTP receiver on loopback that keeps what it is sent (raw bodies) and answers with `status`. */
export interface WebhookReceiver {
  url: string;
  origin: string;
  received: { headers: IncomingHttpHeaders; body: string }[];
  status: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    origin: '',
    received: [],
    status: 200,
    close: () => closeServer(server),
  };
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      receiver.received.push({ headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.url = `${receiver.origin}${path}`;
  return receiver;
}
