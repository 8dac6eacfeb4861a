/** A person or a team to assign a conversation to, as one select's option value ("person:3", "team:2"). */
export type AssigneeChoice = { assignee_id: number | null } | { team_id: number | null };

/** The option value of who has a conversation: its person first, else its team, else nobody (''). */
export function currentChoice(conversation: { assignee_id: number | null; team_id: number | null }): string {
  if (conversation.assignee_id !== null) return `person:${conversation.assignee_id}`;
  if (conversation.team_id !== null) return `team:${conversation.team_id}`;
  return '';
}

/**
 * What an option value asks the assignments API for: a person (the team stays), a team (its
 * person is cleared, so the team picks it up), or nobody; undefined for a value it does not know.
 */
export function assignmentOf(value: string): { assignee_id?: number | null; team_id?: number | null } | undefined {
  if (value === '') return { assignee_id: null, team_id: null };
  const [kind, id] = value.split(':');
  const number = Number(id);
  if (!Number.isInteger(number) || number <= 0) return undefined;
  if (kind === 'person') return { assignee_id: number };
  if (kind === 'team') return { assignee_id: null, team_id: number };
  return undefined;
}
