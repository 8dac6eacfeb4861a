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
  /** What the other tabs post from now on goes to `onMessage` (the last one given). */
  listen(onMessage: (message: TabMessage) => void): void;
}

export function connectTabs(siteKey: string): Tabs {
  if (typeof BroadcastChannel === 'undefined') return { post: () => undefined, listen: () => undefined };
  const channel = new BroadcastChannel(`parley:${siteKey}`);
  return {
    post: (message) => channel.postMessage(message),
    listen(onMessage) {
      channel.onmessage = (event: MessageEvent<TabMessage>) => {
        const message = event.data;
        if (message && typeof message === 'object' && typeof message.type === 'string') onMessage(message);
      };
    },
  };
}
