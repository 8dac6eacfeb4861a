/** A subscription of this node that hears one contact's events. */
export interface ContactStream {
  contactId: number;
  inboxId: string;
  /** Writes one Chatwoot event to the subscription. */
  send(event: string, data: unknown): void;
  /** Ends the connection the subscription is on (the contact was erased, its account closed). */
  end(): void;
}

/**
 * The subscriptions of this node, by contact: where the events of a contact's conversations are
 * written. Other nodes keep their own; the relay tells each node what to write.
 */
export class ContactStreams {
  readonly #byContact = new Map<number, Set<ContactStream>>();

  add(stream: ContactStream): void {
    const streams = this.#byContact.get(stream.contactId) ?? new Set<ContactStream>();
    streams.add(stream);
    this.#byContact.set(stream.contactId, streams);
  }

  remove(stream: ContactStream): void {
    const streams = this.#byContact.get(stream.contactId);
    streams?.delete(stream);
    if (streams?.size === 0) this.#byContact.delete(stream.contactId);
  }

  /** How many subscriptions of this contact this node holds. */
  count(contactId: number): number {
    return this.#byContact.get(contactId)?.size ?? 0;
  }

  deliver(contactId: number, events: readonly (readonly [string, unknown])[]): void {
    for (const stream of this.#byContact.get(contactId) ?? [])
      for (const [event, data] of events) stream.send(event, data);
  }

  /** Ends the connections of these contacts and of every contact of these inboxes. */
  end({ contactIds, inboxIds }: { contactIds: readonly number[]; inboxIds: readonly string[] }): void {
    const inboxes = new Set(inboxIds);
    for (const [contactId, streams] of [...this.#byContact])
      for (const stream of [...streams])
        if (contactIds.includes(contactId) || inboxes.has(stream.inboxId)) stream.end();
  }
}
