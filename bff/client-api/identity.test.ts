import { openSecretBox } from '../../shared/server/index.ts';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { DRIVERS } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import {
  request,
  expectDeskError,
  useClientApi,
  type Contact,
  type Conversation,
} from '../../test/client-api-fixture.ts';

/**
 * Issue 12, finding 1: on an inbox where identity validation is optional, an identifier set
 * without its identifier_hash must never reach a contact whose identifier was proved. Otherwise
 * anyone can pre-register a contact with a victim's identifier, wait for the victim's site to prove
 * it, and keep reading the victim's conversations with the source_id and pubsub_token they got first.
 */
describe.each(DRIVERS)(
  'helpdesk Client API: an identifier claimed without proof never reaches a proved one, on $name',
  (driver) => {
    const api = useClientApi(driver);
    const { base, contactUrl, conversationUrl, hash, newInbox, createContact, openConversation, send } = api;
    let sockets: Socket[] = [];
    afterEach(() => {
      for (const socket of sockets) socket.close();
      sockets = [];
    });

    /** Joins the /client namespace with a pubsub_token; every event it hears is kept in order. */
    async function listen(pubsubToken: string): Promise<{ name: string; data: any }[]> {
      const socket = io(`${api.stack.url}/client`, {
        auth: { pubsub_token: pubsubToken },
        transports: ['websocket'],
        reconnection: false,
      });
      sockets.push(socket);
      const heard: { name: string; data: any }[] = [];
      socket.onAny((name: string, data: unknown) => heard.push({ name, data }));
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      return heard;
    }
    const storedContact = async (sourceId: string) =>
      (
        await api.stack.bffSql.query<{ identifier: string | null; hmac_verified: boolean }>(
          'SELECT identifier, hmac_verified FROM contacts WHERE source_id_hash = $1',
          [openSecretBox(undefined, 'memory://').lookupHash(sourceId)],
        )
      )[0]!;
    /** An inbox that checks identifier_hash when one is sent but does not demand one (the demo inbox's setting). */
    const optionalInbox = () => newInbox({ name: 'Shop with optional identity validation' });

    it("gives the victim's proved create a contact of its own after an attacker pre-registered the victim's identifier, and the attacker hears and reads nothing of it", async () => {
      const inbox = await optionalInbox();
      const identifier = `customer-${Date.now()}`;
      const attacker = await createContact({ identifier, name: 'Mallory' }, inbox.identifier);
      const attackerHears = await listen(attacker.pubsub_token);

      // Later the victim signs in on the shop, whose server proves the identifier.
      const victim = await createContact(
        { identifier, identifier_hash: hash(inbox.hmacToken, identifier), name: 'Victim' },
        inbox.identifier,
      );
      expect(victim.source_id).not.toBe(attacker.source_id);
      expect(victim.pubsub_token).not.toBe(attacker.pubsub_token);
      expect(victim.id).not.toBe(attacker.id);
      expect(await storedContact(victim.source_id)).toEqual({ identifier, hmac_verified: true });
      expect(await storedContact(attacker.source_id)).toMatchObject({ hmac_verified: false });

      const victimHears = await listen(victim.pubsub_token);
      const conversation = await openConversation(victim.source_id, inbox.identifier);
      const sent = await send(inbox.identifier, victim.source_id, conversation.id, 'My card ends in 4242');
      expect(sent.status).toBe(200);
      await api.stack.bff.relay.settled();
      // The victim hears their message and the AI's answer; the same pushes would have reached the attacker by now.
      await until(
        () => victimHears.filter((event) => event.name === 'message.created').length,
        (count) => count >= 2,
        "the victim's message and the answer",
      );
      expect(attackerHears).toEqual([]);

      // With the attacker's source_id, the victim's conversation does not exist.
      for (const url of [
        conversationUrl(inbox.identifier, attacker.source_id, conversation.id),
        `${conversationUrl(inbox.identifier, attacker.source_id, conversation.id)}/messages`,
      ]) {
        expectDeskError(await request(url), 404, 'not_found');
      }
      const listed = await request(`${contactUrl(inbox.identifier, attacker.source_id)}/conversations`);
      expect(listed.status).toBe(200);
      expect((listed.body as Conversation[]).map((item) => item.uuid)).not.toContain(conversation.uuid);

      // The victim's next proved create is the victim's contact again, never the attacker's.
      const again = await createContact(
        { identifier, identifier_hash: hash(inbox.hmacToken, identifier) },
        inbox.identifier,
      );
      expect(again).toMatchObject({ source_id: victim.source_id, pubsub_token: victim.pubsub_token });
    });

    it('gives a create without proof that names an identifier someone proved a contact of its own with no identifier, linked to no one', async () => {
      const inbox = await optionalInbox();
      const identifier = `customer-${Date.now()}`;
      const email = `proved-${Date.now()}@example.com`;
      const victim = await createContact(
        { identifier, identifier_hash: hash(inbox.hmacToken, identifier), email },
        inbox.identifier,
      );
      const conversation = await openConversation(victim.source_id, inbox.identifier);

      for (const body of [{ identifier }, { identifier, email }, { email }]) {
        const stranger = await createContact(body, inbox.identifier);
        expect(stranger.source_id, JSON.stringify(body)).not.toBe(victim.source_id);
        expect(stranger.pubsub_token, JSON.stringify(body)).not.toBe(victim.pubsub_token);
        // Not even the person's id: a proved contact is never merged with what someone merely claimed.
        expect(stranger.id, JSON.stringify(body)).not.toBe(victim.id);
        expect((await storedContact(stranger.source_id)).identifier, JSON.stringify(body)).toBeNull();
        const listed = await request(`${contactUrl(inbox.identifier, stranger.source_id)}/conversations`);
        expect((listed.body as Conversation[]).map((item) => item.uuid)).not.toContain(conversation.uuid);
      }
      expect(await storedContact(victim.source_id)).toEqual({ identifier, hmac_verified: true });
    });

    it('ignores an identifier in a PATCH without proof (as Chatwoot does), so a contact cannot claim one and be handed to its owner later', async () => {
      const inbox = await optionalInbox();
      const identifier = `customer-${Date.now()}`;
      const attacker = await createContact({ name: 'Mallory' }, inbox.identifier);
      const patched = await request(contactUrl(inbox.identifier, attacker.source_id), {
        method: 'PATCH',
        body: { identifier, name: 'Mallory M.' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name: 'Mallory M.', identifier: null });
      expect(await storedContact(attacker.source_id)).toEqual({ identifier: null, hmac_verified: false });

      // Nor can a PATCH without proof change an identifier set at create.
      const claimed = await createContact({ identifier: `${identifier}-first` }, inbox.identifier);
      const changed = await request(contactUrl(inbox.identifier, claimed.source_id), {
        method: 'PATCH',
        body: { identifier },
      });
      expect(changed.status).toBe(200);
      expect(await storedContact(claimed.source_id)).toEqual({
        identifier: `${identifier}-first`,
        hmac_verified: false,
      });

      const victim = await createContact(
        { identifier, identifier_hash: hash(inbox.hmacToken, identifier) },
        inbox.identifier,
      );
      expect([attacker.source_id, claimed.source_id]).not.toContain(victim.source_id);
    });

    it('refuses a proved create that names a source_id someone else registered with 401, instead of handing over that contact', async () => {
      const inbox = await newInbox({ name: 'Members' }, { hmacMandatory: true });
      const optional = await optionalInbox();
      // Without validation: an attacker guesses the source_id the shop will choose for its customer.
      const guessed = `shop-user-${Date.now()}`;
      const attacker = await createContact({ source_id: guessed, identifier: 'customer-1' }, optional.identifier);
      const refused = await request(`${base(optional.identifier)}/contacts`, {
        body: { source_id: guessed, identifier: 'customer-1', identifier_hash: hash(optional.hmacToken, 'customer-1') },
      });
      expectDeskError(refused, 401, 'unauthorized');
      expect(JSON.stringify(refused.body)).not.toContain(attacker.pubsub_token);
      expect(await storedContact(guessed)).toEqual({ identifier: 'customer-1', hmac_verified: false });

      // With validation: proving one's own identifier does not open another member's contact.
      const member = await createContact(
        {
          source_id: `member-source-${Date.now()}`,
          identifier: 'member-1',
          identifier_hash: hash(inbox.hmacToken, 'member-1'),
        },
        inbox.identifier,
      );
      const taken = await request(`${base(inbox.identifier)}/contacts`, {
        body: {
          source_id: member.source_id,
          identifier: 'member-2',
          identifier_hash: hash(inbox.hmacToken, 'member-2'),
        },
      });
      expectDeskError(taken, 401, 'unauthorized');
      expect(JSON.stringify(taken.body)).not.toContain(member.pubsub_token);
      // The member's own proved create with that source_id still finds the member.
      const own = await createContact(
        { source_id: member.source_id, identifier: 'member-1', identifier_hash: hash(inbox.hmacToken, 'member-1') },
        inbox.identifier,
      );
      expect(own).toMatchObject({ source_id: member.source_id, pubsub_token: member.pubsub_token });
    });

    describe('the legitimate flows', () => {
      it('finds the same contact for the same proved identifier again (same source_id and pubsub_token)', async () => {
        const inbox = await optionalInbox();
        const identifier = `customer-${Date.now()}`;
        const identity = { identifier, identifier_hash: hash(inbox.hmacToken, identifier) };
        const first = await createContact({ ...identity, name: 'Returning' }, inbox.identifier);
        const second = await createContact(identity, inbox.identifier);
        expect(second).toEqual(first);
      });

      it('matches creates without proof by identifier as one person (as Chatwoot does), each with its own source_id and pubsub_token', async () => {
        // Chatwoot's builder reuses the contact of an identifier; here a match is the same person (the
        // same id) with a contact of its own, since an unproved identifier proves nothing about who asks.
        const inbox = await optionalInbox();
        const identifier = `visitor-${Date.now()}`;
        const first: Contact = await createContact({ identifier, name: 'Anonymous' }, inbox.identifier);
        const second: Contact = await createContact({ identifier }, inbox.identifier);
        expect(second.id).toBe(first.id);
        expect(second.source_id).not.toBe(first.source_id);
        expect(second.pubsub_token).not.toBe(first.pubsub_token);
        expect(await storedContact(second.source_id)).toEqual({ identifier, hmac_verified: false });
      });

      it('lets a proved PATCH attach the identifier to a contact that had none, which proved creates then find', async () => {
        const inbox = await optionalInbox();
        const identifier = `customer-${Date.now()}`;
        const identity = { identifier, identifier_hash: hash(inbox.hmacToken, identifier) };
        const anonymous = await createContact({ name: 'Browsing' }, inbox.identifier);
        const patched = await request(contactUrl(inbox.identifier, anonymous.source_id), {
          method: 'PATCH',
          body: { ...identity, name: 'Signed in' },
        });
        expect(patched.status).toBe(200);
        expect(patched.body).toMatchObject({ identifier, name: 'Signed in' });
        expect(await storedContact(anonymous.source_id)).toEqual({ identifier, hmac_verified: true });
        expect(await createContact(identity, inbox.identifier)).toMatchObject({
          source_id: anonymous.source_id,
          pubsub_token: anonymous.pubsub_token,
        });
      });
    });
  },
);
