import type { DeskState, DeskStore } from '../desk-store.ts';
import { assignmentOf, currentChoice } from '../assignee-choice.ts';
import { clockText } from '../format.ts';
import { SNOOZE_CHOICES } from '../snooze-times.ts';
import type { DeskConversation } from '../types.ts';

interface ToolProps {
  state: DeskState;
  store: DeskStore;
  conversation: DeskConversation;
}

/** The open conversation's triage: who has it (a person or a team), its labels, and a snooze. */
export function ConversationTools({ state, store }: { state: DeskState; store: DeskStore }) {
  const conversation = state.selected!;
  return (
    <div class="tools" role="group" aria-label="Triage">
      <AssignSelect state={state} store={store} conversation={conversation} />
      <LabelPicker state={state} store={store} conversation={conversation} />
      <SnoozeMenu store={store} conversation={conversation} />
    </div>
  );
}

/** "Assign to": the account's people and teams by name; nobody takes it away. */
function AssignSelect({ state, store, conversation }: ToolProps) {
  const { people, teams } = state.directory;
  return (
    <label class="inline">
      Assign to
      <select
        value={currentChoice(conversation)}
        onChange={(event) => {
          const to = assignmentOf((event.currentTarget as HTMLSelectElement).value);
          if (to) void store.assignTo(to);
        }}
      >
        <option value="">Nobody</option>
        <optgroup label="People">
          {people.map((person) => (
            <option key={person.user_id} value={`person:${person.user_id}`}>
              {person.user_id === store.me ? `${person.name} (you)` : person.name}
            </option>
          ))}
        </optgroup>
        <optgroup label="Teams">
          {teams.map((team) => (
            <option key={team.id} value={`team:${team.id}`}>
              {team.name}
            </option>
          ))}
        </optgroup>
      </select>
    </label>
  );
}

/** The conversation's labels, chosen from the account's. */
function LabelPicker({ state, store, conversation }: ToolProps) {
  const toggle = (title: string, on: boolean) =>
    void store.setLabels(on ? [...conversation.labels, title] : conversation.labels.filter((label) => label !== title));
  return (
    <details class="menu">
      <summary>Labels{conversation.labels.length > 0 && `: ${conversation.labels.join(', ')}`}</summary>
      <div class="menu-body">
        {state.directory.labels.length === 0 && <p class="muted">The account has no labels yet.</p>}
        {state.directory.labels.map((label) => (
          <label class="check" key={label.id}>
            <input
              type="checkbox"
              checked={conversation.labels.includes(label.title)}
              onChange={(event) => toggle(label.title, (event.currentTarget as HTMLInputElement).checked)}
            />
            {label.title}
          </label>
        ))}
      </div>
    </details>
  );
}

/** Snooze until a time or until the customer writes again; a snoozed conversation says until when. */
function SnoozeMenu({ store, conversation }: { store: DeskStore; conversation: DeskConversation }) {
  if (conversation.status === 'snoozed')
    return (
      <p class="muted snoozed">
        Snoozed{' '}
        {conversation.snoozed_until === null
          ? 'until the customer replies'
          : `until ${new Date(conversation.snoozed_until * 1000).toLocaleDateString()} ${clockText(conversation.snoozed_until)}`}
      </p>
    );
  if (conversation.status === 'resolved') return null;
  return (
    <details class="menu">
      <summary>Snooze</summary>
      <div class="menu-body">
        {SNOOZE_CHOICES.map(([choice, words]) => (
          <button
            type="button"
            key={choice}
            onClick={(event) => {
              (event.currentTarget as HTMLElement).closest('details')?.removeAttribute('open');
              void store.snooze(choice);
            }}
          >
            {words}
          </button>
        ))}
      </div>
    </details>
  );
}
