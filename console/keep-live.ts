import type { Socket } from 'socket.io-client';

/** A tick of the clock that comes this much later than asked means the machine slept (or the tab was frozen). */
const TICK_MS = 5_000;
const SLEPT_AFTER_MS = 20_000;
/** How soon to connect again after the server closed the socket (a restart, an expiry). */
const AGAIN_AFTER_MS = 1_000;

/**
 * Keeps the `/desk` socket connected whatever happens to the laptop (Chatwoot issues #10557,
 * #6411, #9967): Socket.IO comes back by itself after a lost transport, but not after the server
 * closed the socket, and it learns of a sleep only when its ping times out. So: connect again after
 * a server's close; after a sleep (a clock tick far too late), the network coming back, or the tab
 * shown again, drop a connection that may be dead and make a fresh one, whose `connect` reads what
 * was missed. Gives the function that stops it.
 */
export function keepLive(socket: Pick<Socket, 'connected' | 'connect' | 'disconnect' | 'on' | 'off'>): () => void {
  let again: ReturnType<typeof setTimeout> | undefined;
  const fresh = () => {
    if (socket.connected) socket.disconnect();
    socket.connect();
  };
  const onDisconnect = (reason: string) => {
    if (reason === 'io server disconnect') again = setTimeout(() => socket.connect(), AGAIN_AFTER_MS);
  };
  const onOnline = () => fresh();
  const onShown = () => {
    if (document.visibilityState === 'visible' && !socket.connected) socket.connect();
  };
  let last = Date.now();
  const clock = setInterval(() => {
    const now = Date.now();
    if (now - last > SLEPT_AFTER_MS) fresh();
    last = now;
  }, TICK_MS);
  socket.on('disconnect', onDisconnect);
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onShown);
  return () => {
    clearTimeout(again);
    clearInterval(clock);
    socket.off('disconnect', onDisconnect);
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onShown);
  };
}
