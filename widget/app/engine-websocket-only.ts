/**
 * The transports engine.io-client may use in the widget (swapped in for its
 * `transports/index.js` by a plugin in vite.config.ts): WebSocket only. Long-polling and
 * WebTransport are left out of the bundle; where a WebSocket cannot be opened the widget falls
 * back to polling the BFF's messages route, which is free of limits. WebSocket-only clients also
 * need no sticky sessions when several BFF nodes share one site.
 */
// A deep path: the package's exports map offers only its entry point.
import { WS } from '../../node_modules/engine.io-client/build/esm/transports/websocket.js';

export const transports = { websocket: WS };
