import { useState } from 'preact/hooks';
import type { DeskState, DeskStore } from '../desk-store.ts';
import { contactName } from '../format.ts';
import type { DeskConversation } from '../types.ts';
import { AssistPanel, AssistSummary, useAssist } from './assist-panel.tsx';
import { Composer } from './composer.tsx';
import { Transcript } from './transcript.tsx';

const STATUS_TEXT = {
  open: 'People answer',
  pending: 'The AI answers',
  snoozed: 'Snoozed',
  resolved: 'Resolved',
} as const;

/**
 * One conversation: its moves (assign to me, hand back to the AI, resolve or reopen), the
 * transcript with the customer's, the AI's and people's messages told apart (private notes too),
 * the customer's typing, read receipts, the AI's help (Assist, with the summary above a
 * conversation people have), and the reply box.
 */
export function ConversationView({ state, store }: { state: DeskState; store: DeskStore }) {
  const conversation = state.selected!;
  const customer = contactName(conversation);
  const resolved = conversation.status === 'resolved';
  // Read again when the customer writes: their newest message is what the help answers.
  const lastAsked = state.messages.findLast((message) => message.message_type === 0)?.id;
  const assist = useAssist(store, conversation.id, lastAsked);
  // A suggestion taken into the reply box; a new object each time, so the same text can be taken again.
  const [offered, setOffered] = useState<{ conversationId: number; text: string }>();

  return (
    <section class="conversation" aria-labelledby="conversation-title">
      <ConversationHead conversation={conversation} store={store} customer={customer} resolved={resolved} />
      {conversation.handled_by === 'human' && <AssistSummary state={assist.state} />}
      <Transcript state={state} store={store} conversation={conversation} customer={customer} />
      <AssistPanel
        state={assist.state}
        onUse={(text) => setOffered({ conversationId: conversation.id, text })}
        onAgain={assist.again}
      />
      <Composer
        store={store}
        resolved={resolved}
        offered={offered?.conversationId === conversation.id ? offered : undefined}
        key={conversation.id}
      />
    </section>
  );
}

interface HeadProps {
  conversation: DeskConversation;
  store: DeskStore;
  customer: string;
  resolved: boolean;
}

/** The customer's name, who answers and who is assigned, and the moves the conversation allows. */
function ConversationHead({ conversation, store, customer, resolved }: HeadProps) {
  return (
    <header class="conversation-head">
      <div>
        <h2 id="conversation-title">{customer}</h2>
        <p class="muted">
          {STATUS_TEXT[conversation.status]}
          {conversation.assignee_id !== null &&
            ` · assigned to ${conversation.assignee_id === store.me ? 'you' : (conversation.assignee?.name ?? 'a colleague')}`}
          {conversation.assignee_id === null && conversation.team && ` · with the team ${conversation.team.name}`}
        </p>
      </div>
      <div class="actions">
        <button type="button" onClick={() => void store.assignToMe()} disabled={conversation.assignee_id === store.me}>
          Assign to me
        </button>
        {conversation.handled_by === 'human' && !resolved && (
          <button type="button" onClick={() => void store.handBack()}>
            Hand back to AI
          </button>
        )}
        {resolved ? (
          <button type="button" onClick={() => void store.reopen()}>
            Reopen
          </button>
        ) : (
          <button type="button" onClick={() => void store.resolve()}>
            Resolve
          </button>
        )}
      </div>
    </header>
  );
}
