import type { PersonRoom } from './person-room.ts';

/** A subscription of this node that hears the events of a person's inboxes. */
export interface PersonStream {
  person: PersonRoom;
  send(event: string, data: unknown): void;
  /** Ends the connection the subscription is on (the person lost the account, the account closed). */
  end(): void;
}

/** The people's subscriptions of this node, by account: where the events of their inboxes are written. */
export class PersonStreams {
  readonly #byAccount = new Map<number, Set<PersonStream>>();

  add(stream: PersonStream): void {
    const streams = this.#byAccount.get(stream.person.accountId) ?? new Set<PersonStream>();
    streams.add(stream);
    this.#byAccount.set(stream.person.accountId, streams);
  }

  remove(stream: PersonStream): void {
    const streams = this.#byAccount.get(stream.person.accountId);
    streams?.delete(stream);
    if (streams?.size === 0) this.#byAccount.delete(stream.person.accountId);
  }

  /** Whether this node holds any person's subscription. */
  any(): boolean {
    return this.#byAccount.size > 0;
  }

  /** Whether this node holds a subscription of someone of the account. */
  hears(accountId: number): boolean {
    return this.#byAccount.has(accountId);
  }

  /** Writes an inbox's events to the people of its account who answer it (administrators: every inbox). */
  deliver(accountId: number, inboxId: string, events: readonly (readonly [string, unknown])[]): void {
    for (const stream of this.#byAccount.get(accountId) ?? []) {
      const { inboxIds } = stream.person;
      if (inboxIds && !inboxIds.includes(inboxId)) continue;
      for (const [event, data] of events) stream.send(event, data);
    }
  }

  /**
   * Ends the connections of the agents who answer these inboxes (their account closed). An
   * administrator's is ended by its next check (`PERSON_RECHECK_MS`), which finds the account closed.
   */
  end(inboxIds: readonly string[]): void {
    for (const streams of [...this.#byAccount.values()])
      for (const stream of [...streams]) if (stream.person.inboxIds?.some((id) => inboxIds.includes(id))) stream.end();
  }
}
