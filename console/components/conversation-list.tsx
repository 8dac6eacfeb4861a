import { useCallback, useState } from 'preact/hooks';
import type { DeskState, DeskStore } from '../desk-store.ts';
import { ConversationRow } from './conversation-row.tsx';
import { ListFilters } from './list-filters.tsx';
import { LoadMore } from './load-more.tsx';
import { SearchBox, SearchResults } from './search-box.tsx';

/**
 * The live list ("Conversations"): search, filters by assignee (with counts), status and label, in
 * the order chosen; each row says who the customer is, what they last wrote, who has it, its
 * labels, how long they have waited and what is unread; scrolling on reads the next page.
 */
export function ConversationList({ state, store, now }: { state: DeskState; store: DeskStore; now: number }) {
  const [q, setQ] = useState('');
  const searching = q.trim() !== '';
  const more = useCallback(() => void store.loadMore(), [store]);
  const open = useCallback((id: number) => void store.open(id), [store]);
  return (
    <nav class="list" aria-label="Conversations">
      <div class="filters">
        <SearchBox q={q} setQ={setQ} />
        {!searching && <ListFilters state={state} store={store} />}
      </div>
      {searching ? (
        <SearchResults q={q.trim()} store={store} />
      ) : state.conversations.length === 0 ? (
        <p class="empty">No conversations here.</p>
      ) : (
        <ul>
          {state.conversations.map((conversation) => (
            <ConversationRow
              key={conversation.id}
              conversation={conversation}
              current={conversation.id === state.selected?.id}
              me={store.me}
              now={now}
              onOpen={open}
            />
          ))}
        </ul>
      )}
      {!searching && state.nextCursor !== null && <LoadMore onMore={more} />}
    </nav>
  );
}
