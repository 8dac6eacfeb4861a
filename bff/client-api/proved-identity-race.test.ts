import { openSecretBox } from '../../shared/server/index.ts';
import { describe, expect, it } from 'vitest';
import { DRIVERS } from '../../test/stack.ts';
import { expectDeskError, request, useClientApi } from '../../test/client-api-fixture.ts';

/**
 * Issue 33: two proved Client API creates of one identifier at the same instant made two contacts.
 * One contact per proved identifier and inbox now (a unique index, migration 033), and a proved
 * PATCH can no longer give a second contact an identifier another proved.
 */
describe.each(DRIVERS)('one contact per proved identifier, on $name', (driver) => {
  const api = useClientApi(driver);

  it('makes one contact of ten simultaneous proved creates of one identifier, and gives it to all ten', async () => {
    const inbox = await api.newInbox({ name: 'Race' });
    const identifier = `racer-${Date.now()}`;
    const identity = { identifier, identifier_hash: api.hash(inbox.hmacToken, identifier) };
    const made = await Promise.all(Array.from({ length: 10 }, () => api.createContact(identity, inbox.identifier)));
    expect(new Set(made.map((contact) => contact.source_id)).size).toBe(1);
    const stored = await api.stack.bffSql.query('SELECT id FROM contacts WHERE inbox_id = $1 AND identifier = $2', [
      inbox.id,
      identifier,
    ]);
    expect(stored).toHaveLength(1);
  });

  it('refuses a proved PATCH that would give a second contact an identifier another proved (422), changing nothing', async () => {
    const inbox = await api.newInbox({ name: 'Taken identifier' });
    const identifier = `owner-${Date.now()}`;
    const identity = { identifier, identifier_hash: api.hash(inbox.hmacToken, identifier) };
    const owner = await api.createContact(identity, inbox.identifier);
    const other = await api.createContact({ name: 'Second device' }, inbox.identifier);
    const refused = await request(api.contactUrl(inbox.identifier, other.source_id), {
      method: 'PATCH',
      body: { ...identity, name: 'Renamed' },
    });
    expectDeskError(refused, 422, 'unprocessable');
    const [stored] = await api.stack.bffSql.query<{ identifier: string | null; name: string }>(
      'SELECT identifier, name FROM contacts WHERE source_id_hash = $1',
      [openSecretBox(undefined, 'memory://').lookupHash(other.source_id)],
    );
    expect(stored).toEqual({ identifier: null, name: 'Second device' });
    expect((await api.createContact(identity, inbox.identifier)).source_id).toBe(owner.source_id);
  });
});
