import type { TabMessage } from '../tabs.ts';
import type { Conversations } from './conversations.ts';
import type { History } from './history.ts';
import type { Connection } from './socket.ts';
import type { Store } from './state.ts';
import type { Unread } from './unread.ts';

/**
 * What this tab does with what the customer's other tabs of the site tell it (tabs.ts carries it):
 * open and close together, share the unread count, catch up on a message, forget after a shutdown.
 */
export function fromOtherTabs(
  store: Store,
  connection: Connection,
  history: History,
  conversations: Conversations,
  unread: Unread,
  setOpen: (open: boolean, fromTab: boolean) => void,
  reset: () => void,
): (message: TabMessage) => void {
  return (message) => {
    switch (message.type) {
      case 'open':
        setOpen(message.open, true);
        return;
      case 'unread':
        unread.countedElsewhere(message.count);
        return;
      case 'read':
        unread.readElsewhere(message.conversationId);
        return;
      case 'message':
        if (!store.state.conversationId) void conversations.adopt(message.conversationId).catch(() => undefined);
        else if (message.conversationId === store.state.conversationId && !connection.socket()?.connected) {
          void history.catchUp().catch(() => undefined);
        }
        return;
      case 'session':
        // Another tab shut the chat down: forget here too.
        reset();
        return;
    }
  };
}
