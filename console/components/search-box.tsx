import { useEffect, useState } from 'preact/hooks';
import type { DeskStore } from '../desk-store.ts';
import type { SearchHit } from '../types.ts';
import { HighlightText } from './highlight-text.tsx';

const WHERE = { message: 'Message', contact_name: 'Name', contact_email: 'E-mail', id: 'Number' } as const;

/** "Search conversations" (`/` focuses it): the customer's words, a name, an e-mail or `#123`; Escape empties it. */
export function SearchBox({ q, setQ }: { q: string; setQ: (q: string) => void }) {
  return (
    <input
      type="search"
      class="search"
      aria-label="Search conversations"
      placeholder="Search conversations (/)"
      value={q}
      onInput={(event) => setQ((event.currentTarget as HTMLInputElement).value)}
      onKeyDown={(event) => event.key === 'Escape' && setQ('')}
    />
  );
}

/** What the search found (read a moment after the typing stops), each with where it matched highlighted. */
export function SearchResults({ q, store }: { q: string; store: DeskStore }) {
  const [hits, setHits] = useState<SearchHit[] | undefined>();
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      void store.search(q).then((found) => current && setHits(found));
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [q, store]);
  if (!hits) return <p class="empty">Searching…</p>;
  if (hits.length === 0) return <p class="empty">Nothing found.</p>;
  return (
    <ul aria-label="Search results">
      {hits.map((hit) => (
        <li key={hit.id}>
          <button type="button" class="item" onClick={() => void store.open(hit.id)}>
            <span class="who">
              {hit.display_name} <span class="muted">#{hit.id}</span>
            </span>
            <span class="line">
              <span class="visually-hidden">{WHERE[hit.highlight.field]}: </span>
              <HighlightText html={hit.highlight.html} />
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
