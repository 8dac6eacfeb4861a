/**
 * Keeps the customer's tabs of one site in step through a BroadcastChannel: whether the chat is
 * open, the unread count, and that a new message arrived (so a tab without a live socket catches
 * up). Without BroadcastChannel each tab simply stands alone.
 */
export type TabMessage =
  | { type: 'open'; open: boolean }
  | { type: 'unread'; count: number }
  | { type: 'read'; conversationId: string }
  | { type: 'message'; conversationId: string }
  | { type: 'session' };

export interface Tabs {
  post(message: TabMessage): void;
  close(): void;
}

export function connectTabs(siteKey: string, onMessage: (message: TabMessage) => void): Tabs {
  if (typeof BroadcastChannel === 'undefined') return { post: () => undefined, close: () => undefined };
  const channel = new BroadcastChannel(`parley:${siteKey}`);
  channel.onmessage = (event: MessageEvent<TabMessage>) => {
    const message = event.data;
    if (message && typeof message === 'object' && typeof message.type === 'string') onMessage(message);
  };
  return { post: (message) => channel.postMessage(message), close: () => channel.close() };
}
