import type { DeskState, DeskStore } from '../desk-store.ts';
import { agoText, contactName, earlierThan, statusWords } from '../format.ts';

/** Who the customer is: name, e-mail, identifiers, custom attributes, the page they came from, and their earlier conversations. */
export function ContactSidebar({ state, store, now }: { state: DeskState; store: DeskStore; now: number }) {
  const conversation = state.selected!;
  const { contact } = conversation;
  const attributes = Object.entries(contact.custom_attributes);
  const earlier = earlierThan(conversation, state.earlier);
  return (
    <aside class="sidebar" aria-label="Contact">
      <h2>{contactName(conversation)}</h2>
      <dl>
        <dt>E-mail</dt>
        <dd>{contact.email ?? '—'}</dd>
        <dt>Customer</dt>
        <dd class="mono">{contact.customer_ref}</dd>
        {contact.identifier && (
          <>
            <dt>Identifier</dt>
            <dd class="mono">{contact.identifier}</dd>
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
        {attributes.flatMap(([key, value]) => [
          <dt key={`k-${key}`}>{key}</dt>,
          <dd key={`v-${key}`}>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>,
        ])}
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
