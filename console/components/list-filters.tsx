import type { DeskState, DeskStore } from '../desk-store.ts';

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

const SORTS = [
  ['latest', 'Newest activity'],
  ['waiting_since', 'Longest waiting'],
] as const;

type Query = DeskState['query'];
const chosen = (event: Event) => (event.currentTarget as HTMLSelectElement).value;

/** The list's filters: assigned to (with counts), status, label, and its order. */
export function ListFilters({ state, store }: { state: DeskState; store: DeskStore }) {
  const { query, counts } = state;
  return (
    <>
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
      <div class="selects">
        <label class="status-filter">
          Status
          <select
            value={query.status}
            onChange={(event) => void store.setQuery({ status: chosen(event) as Query['status'] })}
          >
            {STATUSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label class="status-filter">
          Label
          <select value={query.label} onChange={(event) => void store.setQuery({ label: chosen(event) })}>
            <option value="">Any</option>
            {state.directory.labels.map((label) => (
              <option key={label.id} value={label.title}>
                {label.title}
              </option>
            ))}
          </select>
        </label>
        <label class="status-filter">
          Order
          <select
            value={query.sort_by}
            onChange={(event) => void store.setQuery({ sort_by: chosen(event) as Query['sort_by'] })}
          >
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
    </>
  );
}
