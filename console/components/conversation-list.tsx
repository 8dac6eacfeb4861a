import type { DeskState, DeskStore } from '../desk-store.ts';
import { contactName, sinceText } from '../format.ts';

const STATUSES = [
  ['open', 'With people'],
  ['pending', 'With the AI'],
  ['snoozed', 'Snoozed'],
  ['resolved', 'Resolved'],
  ['all', 'All'],
] as const;

const ASSIGNEES = [
  ['me', 'Mine', 'mine'],
  ['unassigned', 'Unassigned', 'unassigned'],
  ['all', 'All', 'all'],
] as const;

/**
 * The live list ("Conversations"): filters by assignee (with counts) and status; conversations
 * people answer first, each with the customer, how long they have waited, and unread messages.
 */
export function ConversationList({ state, store, now }: { state: DeskState; store: DeskStore; now: number }) {
  const { query, counts } = state;
  return (
    <nav class="list" aria-label="Conversations">
      <div class="filters">
        <div class="tabs" role="group" aria-label="Assigned to">
          {ASSIGNEES.map(([value, label, count]) => (
            <button
              type="button"
              key={value}
              aria-pressed={query.assignee_type === value}
              onClick={() => void store.setQuery({ assignee_type: value })}
            >
              {label} <span class="count">{counts[count]}</span>
            </button>
          ))}
        </div>
        <label class="status-filter">
          Status
          <select
            value={query.status}
            onChange={(event) =>
              void store.setQuery({
                status: (event.currentTarget as HTMLSelectElement).value as DeskState['query']['status'],
              })
            }
          >
            {STATUSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {state.conversations.length === 0 ? (
        <p class="empty">No conversations here.</p>
      ) : (
        <ul>
          {state.conversations.map((conversation) => {
            // A customer waits when people have the conversation and the customer's last messages are unread.
            const waiting = conversation.status === 'open' && conversation.unread_count > 0;
            return (
              <li key={conversation.id}>
                <button
                  type="button"
                  class={`item${conversation.id === state.selected?.id ? ' current' : ''}`}
                  aria-current={conversation.id === state.selected?.id ? 'true' : undefined}
                  onClick={() => void store.open(conversation.id)}
                >
                  <span class="who">{contactName(conversation)}</span>
                  <span class={`badge ${conversation.status}`}>
                    {conversation.status === 'open'
                      ? 'With people'
                      : STATUSES.find(([value]) => value === conversation.status)?.[1]}
                  </span>
                  <span class="when">
                    {waiting
                      ? `waiting ${sinceText(conversation.last_activity_at, now)}`
                      : sinceText(conversation.last_activity_at, now)}
                  </span>
                  {conversation.unread_count > 0 && (
                    <span class="unread" aria-label={`${conversation.unread_count} unread`}>
                      {conversation.unread_count}
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}
