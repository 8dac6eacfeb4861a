import type { DeskApi } from './api.ts';
import type { AccountPresence, Label, Team } from './types.ts';

/** Who and what a conversation can be given to: the account's labels, teams and people (with their availability). */
export interface Directory {
  labels: Label[];
  teams: Team[];
  people: AccountPresence['payload'];
}

export const EMPTY_DIRECTORY: Directory = { labels: [], teams: [], people: [] };

/** Reads the account's labels, teams and people; a part that cannot be read stays empty. */
export async function loadDirectory(api: DeskApi): Promise<Directory> {
  const [labels, teams, presence] = await Promise.all([
    api.labels().catch(() => undefined),
    api.teams().catch(() => undefined),
    api.presence().catch(() => undefined),
  ]);
  return { labels: labels?.payload ?? [], teams: teams ?? [], people: presence?.payload ?? [] };
}

/** A person's name from the directory, else "person #N" when they are not known here. */
export function personName(directory: Directory, id: number): string {
  return directory.people.find((person) => person.user_id === id)?.name ?? `person #${id}`;
}
