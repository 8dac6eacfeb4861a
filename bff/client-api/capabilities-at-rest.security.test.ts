import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { openSecretBox, resealStored } from '../../shared/server/index.ts';
import { BFF_SEALED_COLUMNS } from '../host/store-preparation.ts';
import { everyRow } from '../../test/every-row.ts';
import { DRIVERS } from '../../test/stack.ts';
import { request, useClientApi } from '../../test/client-api-fixture.ts';
import { hashContactCapabilities } from './store/capability-hashes.ts';

/**
 * A Client API contact's `source_id` (in every URL of the contact) and `pubsub_token` (for `/client`
 * and `/cable`) are capabilities: whoever reads the database must find neither (issue 33). The BFF
 * keeps each as a keyed hash to find the contact by and sealed to show it again. Before, both were
 * plain columns.
 */
describe.each(DRIVERS)('Client API capabilities at rest, on $name', (driver) => {
  const api = useClientApi(driver);
  const { contactUrl, createContact } = api;
  // Tests run the BFF in this process with a `memory://` data directory: this is its box.
  const box = openSecretBox(undefined, 'memory://');

  /** Whether a `/client` socket with this pubsub_token is let in. */
  function admitted(pubsub_token: string): Promise<boolean> {
    const socket = io(`${api.stack.url}/client`, {
      auth: { pubsub_token },
      transports: ['websocket'],
      reconnection: false,
    });
    return new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('connect_error', () => resolve(false));
    }).finally(() => socket.close());
  }

  it('keeps no source_id or pubsub_token readable in any table, and still serves both', async () => {
    const chosen = await createContact({ source_id: 'my-own-contact-id-42', name: 'Chosen' });
    const made = await createContact({ name: 'Made' });
    await request(`${contactUrl(api.stack.inboxIdentifier, made.source_id)}/conversations`, { body: {} });
    const capabilities = [chosen.source_id, chosen.pubsub_token, made.source_id, made.pubsub_token];
    expect(chosen.source_id).toBe('my-own-contact-id-42');

    for (const { table, rows } of await everyRow(api.stack.bffSql))
      for (const row of rows)
        for (const capability of capabilities) expect(row, `a row of ${table}`).not.toContain(capability);

    const shown = await request(contactUrl(api.stack.inboxIdentifier, made.source_id));
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ source_id: made.source_id, pubsub_token: made.pubsub_token });
    expect(await admitted(made.pubsub_token)).toBe(true);
    // What the database holds opens nothing: its hash is not a pubsub_token, nor its sealed form a source_id.
    const [stored] = await api.stack.bffSql.query<{ source_id: string; pubsub_token_hash: string }>(
      'SELECT source_id, pubsub_token_hash FROM contacts WHERE source_id_hash = $1',
      [box.lookupHash(made.source_id)],
    );
    expect(stored!.source_id).toMatch(/^sealed:v1:/);
    expect(await admitted(stored!.pubsub_token_hash)).toBe(false);
    expect((await request(contactUrl(api.stack.inboxIdentifier, stored!.source_id))).status).toBe(404);
  });

  it('hashes and seals a contact stored plain before migration 042, which is then found as before', async () => {
    const old = await createContact({ name: 'From before' });
    // As such a row was: plain capabilities, no hashes.
    await api.stack.bffSql.query(
      'UPDATE contacts SET source_id = $1, pubsub_token = $2, source_id_hash = NULL, pubsub_token_hash = NULL WHERE source_id_hash = $3',
      [old.source_id, old.pubsub_token, box.lookupHash(old.source_id)],
    );
    expect((await request(contactUrl(api.stack.inboxIdentifier, old.source_id))).status).toBe(404);

    // What the BFF does at start (bff/host/store-preparation.ts).
    expect(await hashContactCapabilities(api.stack.bffSql, box)).toBeGreaterThanOrEqual(1);
    await resealStored(api.stack.bffSql, box, BFF_SEALED_COLUMNS);

    const [stored] = await api.stack.bffSql.query<{ source_id: string; pubsub_token: string }>(
      'SELECT source_id, pubsub_token FROM contacts WHERE source_id_hash = $1',
      [box.lookupHash(old.source_id)],
    );
    expect(stored!.source_id).toMatch(/^sealed:v1:/);
    expect(stored!.pubsub_token).toMatch(/^sealed:v1:/);
    const shown = await request(contactUrl(api.stack.inboxIdentifier, old.source_id));
    expect(shown.body).toMatchObject({ source_id: old.source_id, pubsub_token: old.pubsub_token });
    expect(await admitted(old.pubsub_token)).toBe(true);
  });
});
