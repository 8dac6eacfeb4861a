import type { DeskConversation } from '../types.ts';
import { statusWords } from '../format.ts';
import { lastLine, rowName, rowTime } from '../row-text.ts';

interface RowProps {
  conversation: DeskConversation;
  current: boolean;
  me: number;
  now: number;
  onOpen: (id: number) => void;
}

/** One conversation of the list: the customer, their last line, who has it, labels, waiting time, unread messages. */
export function ConversationRow({ conversation, current, me, now, onOpen }: RowProps) {
  const who = conversation.assignee
    ? conversation.assignee.id === me
      ? 'You'
      : conversation.assignee.available_name || conversation.assignee.name
    : conversation.team?.name;
  return (
    <li>
      <button
        type="button"
        class={`item${current ? ' current' : ''}`}
        aria-current={current ? 'true' : undefined}
        onClick={() => onOpen(conversation.id)}
      >
        <span class="who">{rowName(conversation)}</span>
        <span class={`badge ${conversation.status}`}>{statusWords(conversation)}</span>
        <span class="line">{lastLine(conversation)}</span>
        <span class="when">{rowTime(conversation, now)}</span>
        <span class="row-tags">
          {who && <span class="owner">{who}</span>}
          {conversation.labels.map((label) => (
            <span class="label" key={label}>
              {label}
            </span>
          ))}
        </span>
        {conversation.unread_count > 0 && (
          <span class="unread" aria-label={`${conversation.unread_count} unread`}>
            {conversation.unread_count}
          </span>
        )}
      </button>
    </li>
  );
}
