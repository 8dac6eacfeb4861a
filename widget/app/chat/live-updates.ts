import type { WidgetConfig, WidgetMessage } from '../../../shared/index.ts';
import type { Conversations } from './conversations.ts';
import type { History } from './history.ts';
import type { Outbox } from './outbox.ts';
import type { Connection } from './socket.ts';
import type { Store } from './state.ts';

// How often to read new messages while the socket cannot connect.
const POLL_MS = 5_000;

/**
 * What the BFF pushes, taken into the chat: messages, their statuses, the AI's reply as it is written,
 * typing, moves of conversations, and whether people answer now (the header and Call follow). While the socket cannot connect, new messages are read every
 * few seconds instead (polling does not count against limits). Gives the function that connects.
 */
export function createLiveUpdates(
  store: Store,
  connection: Connection,
  history: History,
  conversations: Conversations,
  outbox: Outbox,
  receive: (message: WidgetMessage) => void,
  setOnline: (online: boolean) => void,
  /** The config read again: after a reconnect, for whether people answer now. */
  readConfig: () => Promise<WidgetConfig>,
): (token: string) => void {
  const inOpen = (conversationId: string) => conversationId === store.state.conversationId;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  const availability = followAvailability(store, readConfig);

  function pollWhileDisconnected(): void {
    if (pollTimer) return;
    const poll = () => {
      pollTimer = undefined;
      const socket = connection.socket();
      if (!socket || socket.connected) return;
      void history.catchUp().catch(() => undefined);
      pollTimer = setTimeout(poll, POLL_MS);
    };
    pollTimer = setTimeout(poll, POLL_MS);
  }

  return (token) => {
    const socket = connection.open(token);
    socket.on('connect_error', pollWhileDisconnected);
    socket.on('message:created', receive);
    socket.on('message:updated', history.update);
    socket.on('message:delta', (delta) => {
      if (inOpen(delta.conversation_id)) store.set({ draft: store.state.draft + delta.text });
    });
    socket.on('typing:changed', (change) => {
      if (inOpen(change.conversation_id)) store.set({ typing: change.typing });
    });
    const patch = conversations.patch;
    socket.on('conversation:handed_over', (notice) => patch(notice.conversation_id, { handled_by: 'human' }));
    socket.on('conversation:handed_back', (notice) => patch(notice.conversation_id, { handled_by: 'ai' }));
    socket.on('conversation:closed', (notice) => patch(notice.conversation_id, { status: 'resolved' }));
    socket.on('conversation:reopened', (notice) =>
      patch(notice.conversation_id, { status: 'open', handled_by: 'human' }),
    );
    socket.on('availability:changed', availability.pushed);
    let connectedBefore = false;
    socket.on('connect', () => {
      setOnline(true);
      // The first connect follows the config's first read.
      if (connectedBefore) availability.readAgain();
      connectedBefore = true;
      // After every (re)connect, recovered or not, read by cursor what may have been missed, and take
      // the unread counts from the server again (while away, this tab took another tab's count).
      void history.catchUp().catch(() => undefined);
      void conversations.refresh().catch(() => undefined);
      void outbox.flush();
    });
    socket.on('disconnect', (reason) => {
      // A reply cut off mid-stream comes whole with the catch-up after the reconnect.
      store.set({ typing: false, draft: '' });
      if (reason === 'io server disconnect') setTimeout(() => socket.connect(), 1e3);
    });
  };
}

/**
 * Whether people answer now, in the config the header and Call read: pushed live
 * (`availability:changed`), and read again after a reconnect, since a change while the socket was
 * down was pushed to nobody (issue 31). A read that a push overtook is older than it, and dropped.
 */
function followAvailability(store: Store, readConfig: () => Promise<WidgetConfig>) {
  let pushes = 0;
  const take = (people_available: boolean | undefined, calls: boolean) => {
    const config = store.state.config;
    if (config)
      store.set({
        config: { ...config, inbox: { ...config.inbox, people_available }, features: { ...config.features, calls } },
      });
  };
  return {
    pushed({ people_available, calls }: { people_available?: boolean | undefined; calls: boolean }) {
      pushes++;
      take(people_available, calls);
    },
    readAgain() {
      const before = pushes;
      void readConfig().then(
        ({ inbox, features }) => before === pushes && take(inbox.people_available, features.calls === true),
        () => undefined,
      );
    },
  };
}
