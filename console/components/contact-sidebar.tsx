import type { DeskState, DeskStore } from '../desk-store.ts';
import { agoText, earlierThan, statusWords } from '../format.ts';
import { rowName } from '../row-text.ts';
import { ContactEditor } from './contact-editor.tsx';

/** Who the customer is: their contact (edited here), identifiers, the page they came from, and their earlier conversations. */
export function ContactSidebar({ state, store, now }: { state: DeskState; store: DeskStore; now: number }) {
  const conversation = state.selected!;
  const { contact } = conversation;
  const earlier = earlierThan(conversation, state.earlier);
  return (
    <aside class="sidebar" aria-label="Contact">
      <h2>{rowName(conversation)}</h2>
      {contact.id !== null && <ContactEditor store={store} contactId={contact.id} key={contact.id} />}
      <dl>
        <dt>Customer</dt>
        <dd class="mono">{contact.customer_ref}</dd>
        {contact.identifier && (
          <>
            <dt>Identifier</dt>
            <dd class="mono">{contact.identifier}</dd>
          </>
        )}
        {contact.additional_attributes.time_zone && (
          <>
            <dt>Time zone</dt>
            <dd>{contact.additional_attributes.time_zone}</dd>
          </>
        )}
        {contact.additional_attributes.browser && (
          <>
            <dt>Browser</dt>
            <dd>{contact.additional_attributes.browser}</dd>
          </>
        )}
        <dt>Page</dt>
        <dd>
          {conversation.page_url ? (
            <a href={conversation.page_url} target="_blank" rel="noopener noreferrer">
              {conversation.page_url}
            </a>
          ) : (
            '—'
          )}
        </dd>
      </dl>
      <h3>Earlier conversations</h3>
      {earlier.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul class="earlier">
          {earlier.map((other) => (
            <li key={other.id}>
              <button type="button" class="link" onClick={() => void store.open(other.id)}>
                #{other.id} · {statusWords(other)} · {agoText(other.last_activity_at, now)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
