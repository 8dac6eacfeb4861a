import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on `port` (0: any free one) of `host`; rejects when it cannot (the port is taken). */
export function listen(server: Server, port = 0, host = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Where a listening server answers: `http://host:port`, with a name for the any-address hosts and brackets for IPv6. */
export function urlOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  const host =
    address === '0.0.0.0' || address === '::' ? 'localhost' : address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${port}`;
}

/** Stops a server at once: open connections are cut, not waited for. */
export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await listen(server);
  const { port } = server.address() as AddressInfo;
  await closeServer(server);
  return port;
}
