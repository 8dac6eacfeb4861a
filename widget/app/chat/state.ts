import type { WidgetConfig, WidgetConversation } from '../../../shared/index.ts';
import type { SiteStorage } from '../storage.ts';
import type { ShownMessage } from './messages.ts';

export type View = 'chat' | 'list' | 'prechat';

export interface ChatState {
  phase: 'idle' | 'connecting' | 'ready' | 'error';
  /** What went wrong: 'rate_limited', 'connect' (no answer at all), or the BFF's own words. */
  error?: string | undefined;
  /** When a refused start may be tried again (ms since 1970), from the answer's Retry-After. */
  retryAt?: number | undefined;
  /** What the refusal told beside its code (a rate limit: the inbox's public name and e-mail, widget/app/components/limited). */
  refused?: unknown;
  open: boolean;
  view: View;
  online: boolean;
  config?: WidgetConfig | undefined;
  conversations: WidgetConversation[];
  conversationId?: string | undefined;
  messages: ShownMessage[];
  handledBy: 'ai' | 'human';
  resolved: boolean;
  surveyAnswered: boolean;
  typing: boolean;
  /** The AI's reply as it is being written (pieces streamed from an LLM); empty once it arrives whole. */
  draft: string;
  unread: number;
  sound: boolean;
}

/** The chat's state: each change makes a new object (components compare them), then tells every listener. */
export interface Store {
  readonly state: ChatState;
  set(patch: Partial<ChatState>): void;
  subscribe(listener: () => void): () => void;
}

/** The state as a page load starts it, with what this device remembers (the conversation, the sound). */
export function createStore(storage: SiteStorage): Store {
  const listeners = new Set<() => void>();
  let state: ChatState = {
    phase: 'idle',
    open: false,
    view: 'chat',
    online: typeof navigator === 'undefined' || navigator.onLine !== false,
    conversations: [],
    conversationId: storage.get('conversation'),
    messages: [],
    handledBy: 'ai',
    resolved: false,
    surveyAnswered: false,
    typing: false,
    draft: '',
    unread: 0,
    sound: storage.get('sound') === 'on',
  };
  return {
    get state() {
      return state;
    },
    set(patch) {
      state = { ...state, ...patch };
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The list with one conversation changed (the others as they are). */
export function withConversation(
  conversations: WidgetConversation[],
  id: string,
  change: (conversation: WidgetConversation) => Partial<WidgetConversation>,
): WidgetConversation[] {
  return conversations.map((conversation) =>
    conversation.id === id ? { ...conversation, ...change(conversation) } : conversation,
  );
}
