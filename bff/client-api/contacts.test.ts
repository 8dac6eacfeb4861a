import { describe, expect, it } from 'vitest';
import { DRIVERS } from '../../test/stack.ts';
import {
  request,
  INBOX_FIELDS,
  WORKING_HOURS_FIELDS,
  CONTACT_FIELDS,
  CONTACT_RECORD_FIELDS,
  CAPABILITY,
  expectFields,
  expectDeskError,
  useClientApi,
  type Conversation,
} from '../../test/client-api-fixture.ts';

/** The helpdesk Client API over HTTP (the inbox, contacts and identity validation); see test/client-api-fixture.ts for what they share. */
describe.each(DRIVERS)('helpdesk Client API: the inbox, contacts and identity validation, on $name', (driver) => {
  const api = useClientApi(driver);
  const { base, contactUrl, hash, newInbox, createContact, openConversation, send, contactCount } = api;

  describe('GET /public/api/v1/inboxes/{inbox_identifier}', () => {
    it("gives the public inbox with every field Chatwoot's view renders, each of Chatwoot's type", async () => {
      const response = await request(base());
      expect(response.status).toBe(200);
      expectFields(response.body, INBOX_FIELDS, 'inbox');
      expect(response.body).toMatchObject({
        identifier: api.stack.inboxIdentifier,
        name: 'Demo store',
        csat_survey_enabled: true,
        identity_validation_enabled: false,
      });
      const week = response.body.working_hours as unknown[];
      expect(week).toHaveLength(7);
      week.forEach((day, index) => expectFields(day, WORKING_HOURS_FIELDS, `working_hours[${index}]`));
      expect(week.map((day) => (day as { day_of_week: number }).day_of_week)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    });

    it("shows another inbox's own settings: its name, survey and identity validation", async () => {
      const inbox = await newInbox({ name: 'Members area', surveyEnabled: false }, { hmacMandatory: true });
      const response = await request(base(inbox.identifier));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        identifier: inbox.identifier,
        name: 'Members area',
        csat_survey_enabled: false,
        identity_validation_enabled: true,
      });
    });

    it('answers an unknown or malformed inbox identifier with 404 not_found in the bad_request_error shape', async () => {
      expectDeskError(await request(base('NoSuchInboxIdentifier0000000')), 404, 'not_found');
      expectDeskError(await request(base('not%20an%20identifier')), 404, 'not_found');
    });

    it('gives inboxes identifiers of at least 128 random bits, different for every inbox', async () => {
      expect(api.stack.inboxIdentifier).toMatch(CAPABILITY);
      const first = await newInbox({ name: 'One' });
      const second = await newInbox({ name: 'Two' });
      expect(first.identifier).toMatch(CAPABILITY);
      expect(second.identifier).toMatch(CAPABILITY);
      expect(new Set([api.stack.inboxIdentifier, first.identifier, second.identifier]).size).toBe(3);
    });
  });

  describe('POST /contacts', () => {
    it('creates a contact and answers with the public contact: id, source_id, pubsub_token, name, email, phone_number', async () => {
      const before = await contactCount(api.demoInboxId);
      const response = await request(`${base()}/contacts`, {
        body: { name: 'Ada Lovelace', email: 'ada.create@example.com', phone_number: '+44 20 7946 0000' },
      });
      expect(response.status).toBe(200);
      expectFields(response.body, CONTACT_FIELDS, 'contact');
      expect(response.body).toMatchObject({
        name: 'Ada Lovelace',
        email: 'ada.create@example.com',
        phone_number: '+44 20 7946 0000',
      });
      expect(await contactCount(api.demoInboxId)).toBe(before + 1);

      const shown = await request(contactUrl(api.stack.inboxIdentifier, response.body.source_id));
      expect(shown.status).toBe(200);
      expectFields(shown.body, CONTACT_FIELDS, 'contact (GET)');
      expect(shown.body).toEqual(response.body);
    });

    it('gives every new contact a source_id and a pubsub_token of at least 128 random bits, and a name when none is sent', async () => {
      const first = await createContact();
      const second = await createContact();
      for (const contact of [first, second]) {
        expect(contact.source_id).toMatch(CAPABILITY);
        expect(contact.pubsub_token).toMatch(CAPABILITY);
        expect(contact.name.length).toBeGreaterThan(0);
        expect(contact.email).toBeNull();
        expect(contact.phone_number).toBeNull();
      }
      expect(new Set([first.source_id, second.source_id, first.pubsub_token, second.pubsub_token]).size).toBe(4);
      expect(first.id).not.toBe(second.id);
    });

    it('keeps a source_id the client chose, and finds the contact by it', async () => {
      const chosen = `app-install-${Date.now()}-a1b2c3`;
      const contact = await createContact({ source_id: chosen, name: 'Grace' });
      expect(contact.source_id).toBe(chosen);
      const shown = await request(contactUrl(api.stack.inboxIdentifier, chosen));
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({ id: contact.id, source_id: chosen, name: 'Grace' });

      // The same source_id again gives back that contact rather than a second one.
      const before = await contactCount(api.demoInboxId);
      const again = await createContact({ source_id: chosen });
      expect(again.id).toBe(contact.id);
      expect(await contactCount(api.demoInboxId)).toBe(before);
    });

    it('matches an existing contact by identifier, then email, then phone number, as Chatwoot does', async () => {
      const tag = Date.now();
      const phone = (suffix: number) => `+1555${String(tag + suffix).slice(-7)}`;
      const before = await contactCount(api.demoInboxId);

      // The identifier wins over another contact's email.
      const byIdentifier = await createContact({ identifier: `user-${tag}`, name: 'By identifier' });
      const holdsEmail = await createContact({ email: `first-${tag}@example.com`, name: 'Holds the email' });
      expect((await createContact({ identifier: `user-${tag}`, email: `first-${tag}@example.com` })).id).toBe(
        byIdentifier.id,
      );

      // Without a known identifier, the email (in any case) wins over another contact's phone number.
      const byEmail = await createContact({ email: `second-${tag}@example.com`, name: 'By email' });
      const holdsPhone = await createContact({ phone_number: phone(1), name: 'Holds the phone' });
      expect(
        (
          await createContact({
            identifier: `unknown-${tag}`,
            email: `SECOND-${tag}@example.com`,
            phone_number: phone(1),
          })
        ).id,
      ).toBe(byEmail.id);

      // The phone number alone.
      const byPhone = await createContact({ phone_number: phone(2), name: 'By phone' });
      expect((await createContact({ phone_number: phone(2) })).id).toBe(byPhone.id);
      expect(await contactCount(api.demoInboxId)).toBe(before + 5);

      // Nothing known: a new contact.
      const fresh = await createContact({
        identifier: `other-${tag}`,
        email: `other-${tag}@example.com`,
        phone_number: phone(3),
      });
      expect([byIdentifier.id, holdsEmail.id, byEmail.id, holdsPhone.id, byPhone.id]).not.toContain(fresh.id);
      expect(await contactCount(api.demoInboxId)).toBe(before + 6);
    });

    it("leaves a matched contact's details as they were when a create only names its email, as Chatwoot's builder does", async () => {
      // ContactInboxWithContactBuilder finds the contact (find_contact || create_contact) and does not update it.
      const tag = Date.now();
      const owner = await createContact({
        name: 'Original name',
        email: `owner-${tag}@example.com`,
        custom_attributes: { plan: 'gold' },
      });
      await createContact({
        name: 'Mallory',
        email: `owner-${tag}@example.com`,
        phone_number: '+1 999 000 0000',
        custom_attributes: { plan: 'free' },
      });
      const [row] = await api.stack.bffSql.query<{
        name: string;
        phone_number: string | null;
        custom_attributes: object;
      }>('SELECT name, phone_number, custom_attributes FROM contacts WHERE id = $1', [owner.id]);
      expect(row).toEqual({ name: 'Original name', phone_number: null, custom_attributes: { plan: 'gold' } });
    });

    it("does not hand a caller who only names a contact's email or phone that contact's source_id, pubsub_token or conversations", async () => {
      // The source_id and pubsub_token are the capability to read a contact's conversations
      // (SPEC: "Whoever holds a contact identifier can read that contact's conversations"). Chatwoot
      // gives such a caller a new contact-inbox (a new source_id and pubsub_token) and none of the
      // earlier conversations.
      const tag = Date.now();
      const victim = await createContact({
        name: 'Victim',
        email: `victim-${tag}@example.com`,
        phone_number: `+1666${String(tag).slice(-7)}`,
      });
      const conversation = await openConversation(victim.source_id);
      expect(
        (await send(api.stack.inboxIdentifier, victim.source_id, conversation.id, 'My card ends in 4242')).status,
      ).toBe(200);

      for (const body of [{ email: `victim-${tag}@example.com` }, { phone_number: `+1666${String(tag).slice(-7)}` }]) {
        const stranger = await createContact(body);
        expect(stranger.source_id, `source_id given for ${JSON.stringify(body)}`).not.toBe(victim.source_id);
        expect(stranger.pubsub_token, `pubsub_token given for ${JSON.stringify(body)}`).not.toBe(victim.pubsub_token);
        const listed = await request(`${contactUrl(api.stack.inboxIdentifier, stranger.source_id)}/conversations`);
        expect(listed.status).toBe(200);
        expect((listed.body as Conversation[]).map((item) => item.uuid)).not.toContain(conversation.uuid);
      }
    });

    it('refuses a malformed body with 422 unprocessable naming the field, and creates nothing', async () => {
      const before = await contactCount(api.demoInboxId);
      const cases: [object, string][] = [
        [{ email: 'not an email' }, 'email'],
        [{ phone_number: 'call me' }, 'phone_number'],
        [{ source_id: 'short' }, 'source_id'],
        [{ custom_attributes: 'plan=gold' }, 'custom_attributes'],
      ];
      for (const [body, field] of cases) {
        const response = await request(`${base()}/contacts`, { body });
        expectDeskError(response, 422, 'unprocessable');
        expect(response.body.errors[0].field, JSON.stringify(body)).toBe(field);
      }
      expectDeskError(await request(`${base()}/contacts`, { rawBody: '{"name":' }), 400, 'invalid_json');
      expect(await contactCount(api.demoInboxId)).toBe(before);
    });

    it('answers a create on an unknown inbox with 404 not_found', async () => {
      expectDeskError(
        await request(`${base('NoSuchInboxIdentifier0000000')}/contacts`, { body: { name: 'Nobody' } }),
        404,
        'not_found',
      );
    });
  });

  describe('GET and PATCH /contacts/{contact_identifier}', () => {
    it('answers an unknown contact, and a contact of another inbox, with 404 not_found', async () => {
      expectDeskError(
        await request(contactUrl(api.stack.inboxIdentifier, 'NoSuchContactIdentifier00000')),
        404,
        'not_found',
      );
      const other = await newInbox({ name: 'Elsewhere' });
      const theirs = await createContact({ name: 'Theirs' }, other.identifier);
      expectDeskError(await request(contactUrl(api.stack.inboxIdentifier, theirs.source_id)), 404, 'not_found');
      expect((await request(contactUrl(other.identifier, theirs.source_id))).status).toBe(200);
    });

    it('updates the given fields, deep-merges custom_attributes, and answers with the contact record', async () => {
      const contact = await createContact({
        name: 'Linus',
        custom_attributes: { plan: { tier: 'gold', addons: { backup: true } }, locale: 'de', tags: ['a', 'b'] },
      });
      const response = await request(contactUrl(api.stack.inboxIdentifier, contact.source_id), {
        method: 'PATCH',
        body: {
          name: 'Linus T.',
          email: 'linus.patch@example.com',
          custom_attributes: { plan: { seats: 3, addons: { support: 'premium' } }, tags: ['c'] },
        },
      });
      expect(response.status).toBe(200);
      expectFields(response.body, CONTACT_RECORD_FIELDS, 'contact record');
      expect(response.body).toMatchObject({
        id: contact.id,
        name: 'Linus T.',
        email: 'linus.patch@example.com',
        phone_number: null,
      });
      expect(response.body.custom_attributes).toEqual({
        plan: { tier: 'gold', seats: 3, addons: { backup: true, support: 'premium' } },
        locale: 'de',
        tags: ['c'],
      });

      // Kept: the next read shows the update, and a conversation's contact carries the merged attributes.
      expect((await request(contactUrl(api.stack.inboxIdentifier, contact.source_id))).body).toMatchObject({
        name: 'Linus T.',
        email: 'linus.patch@example.com',
      });
      const conversation = await openConversation(contact.source_id);
      expect(conversation.contact['custom_attributes']).toEqual(response.body.custom_attributes);
    });

    it('refuses a PATCH of an unknown contact with 404, and a malformed one with 422, changing nothing', async () => {
      const before = await contactCount(api.demoInboxId);
      expectDeskError(
        await request(contactUrl(api.stack.inboxIdentifier, 'NoSuchContactIdentifier00000'), {
          method: 'PATCH',
          body: { name: 'Ghost' },
        }),
        404,
        'not_found',
      );
      expect(await contactCount(api.demoInboxId)).toBe(before);

      const contact = await createContact({ name: 'Unchanged', email: 'unchanged@example.com' });
      const refused = await request(contactUrl(api.stack.inboxIdentifier, contact.source_id), {
        method: 'PATCH',
        body: { name: 'Changed', email: 'nope' },
      });
      expectDeskError(refused, 422, 'unprocessable');
      expect((await request(contactUrl(api.stack.inboxIdentifier, contact.source_id))).body).toMatchObject({
        name: 'Unchanged',
        email: 'unchanged@example.com',
      });
    });
  });

  describe('identity validation (identifier_hash)', () => {
    it('takes contacts without a hash on an inbox that does not require one, and still refuses a wrong hash with 401', async () => {
      const before = await contactCount(api.demoInboxId);
      const plain = await createContact({ identifier: `plain-${Date.now()}` });
      expect(await contactCount(api.demoInboxId)).toBe(before + 1);

      const refused = await request(`${base()}/contacts`, {
        body: { identifier: `wrong-${Date.now()}`, identifier_hash: 'f'.repeat(64) },
      });
      expectDeskError(refused, 401, 'unauthorized');
      expect(await contactCount(api.demoInboxId)).toBe(before + 1);
      expect(plain.source_id).toMatch(CAPABILITY);
    });

    it('on an inbox that requires it, refuses a create without a valid identifier_hash with 401 (not 500) and creates nothing', async () => {
      const inbox = await newInbox({ name: 'Members' }, { hmacMandatory: true });
      const identifier = 'member-1';
      const cases: object[] = [
        {},
        { name: 'No identity' },
        { identifier },
        { identifier, identifier_hash: 'not-a-hash' },
        { identifier, identifier_hash: hash(inbox.hmacToken, 'member-2') },
        { identifier, identifier_hash: hash('another inbox token', identifier) },
        { identifier_hash: hash(inbox.hmacToken, identifier) },
      ];
      for (const body of cases)
        expectDeskError(await request(`${base(inbox.identifier)}/contacts`, { body }), 401, 'unauthorized');
      expect(await contactCount(inbox.id)).toBe(0);
    });

    it('accepts identifier_hash = hex HMAC-SHA256 of the identifier with the inbox HMAC token, on create, get and patch', async () => {
      const inbox = await newInbox({ name: 'Members' }, { hmacMandatory: true });
      const identifier = 'member-42';
      const identifier_hash = hash(inbox.hmacToken, identifier);
      const contact = await createContact({ identifier, identifier_hash, name: 'Member 42' }, inbox.identifier);
      expect(contact.name).toBe('Member 42');

      const shown = await request(
        `${contactUrl(inbox.identifier, contact.source_id)}?identifier=${identifier}&identifier_hash=${identifier_hash}`,
      );
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({ id: contact.id, name: 'Member 42' });

      const patched = await request(contactUrl(inbox.identifier, contact.source_id), {
        method: 'PATCH',
        body: { identifier, identifier_hash, name: 'Member Forty-Two' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id: contact.id, name: 'Member Forty-Two', identifier });

      // The same proved identifier finds the same contact again.
      expect((await createContact({ identifier, identifier_hash }, inbox.identifier)).id).toBe(contact.id);
      expect(await contactCount(inbox.id)).toBe(1);
    });

    it('on an inbox that requires it, refuses GET and PATCH without a valid pair, or with the pair of another identifier, and PATCH changes nothing', async () => {
      const inbox = await newInbox({ name: 'Members' }, { hmacMandatory: true });
      const contact = await createContact(
        { identifier: 'member-7', identifier_hash: hash(inbox.hmacToken, 'member-7'), name: 'Seven' },
        inbox.identifier,
      );
      const someoneElse = `identifier=member-8&identifier_hash=${hash(inbox.hmacToken, 'member-8')}`;
      for (const query of [
        '',
        '?identifier=member-7',
        `?identifier=member-7&identifier_hash=${'0'.repeat(64)}`,
        `?${someoneElse}`,
      ]) {
        expectDeskError(
          await request(`${contactUrl(inbox.identifier, contact.source_id)}${query}`),
          401,
          'unauthorized',
        );
      }
      for (const identity of [
        {},
        { identifier: 'member-7', identifier_hash: '0'.repeat(64) },
        { identifier: 'member-8', identifier_hash: hash(inbox.hmacToken, 'member-8') },
      ]) {
        const refused = await request(contactUrl(inbox.identifier, contact.source_id), {
          method: 'PATCH',
          body: { ...identity, name: 'Hijacked', custom_attributes: { owned: true } },
        });
        expectDeskError(refused, 401, 'unauthorized');
      }
      const shown = await request(
        `${contactUrl(inbox.identifier, contact.source_id)}?identifier=member-7&identifier_hash=${hash(inbox.hmacToken, 'member-7')}`,
      );
      expect(shown.body).toMatchObject({ name: 'Seven' });
      const [row] = await api.stack.bffSql.query<{ identifier: string; custom_attributes: object }>(
        'SELECT identifier, custom_attributes FROM contacts WHERE id = $1',
        [contact.id],
      );
      expect(row).toEqual({ identifier: 'member-7', custom_attributes: {} });
    });

    it("on an inbox that requires it, a caller who proves their own identifier cannot take over another member's contact by naming that member's email", async () => {
      const inbox = await newInbox({ name: 'Members' }, { hmacMandatory: true });
      const victim = await createContact(
        {
          identifier: 'member-victim',
          identifier_hash: hash(inbox.hmacToken, 'member-victim'),
          email: 'victim.member@example.com',
        },
        inbox.identifier,
      );
      const conversation = await openConversation(victim.source_id, inbox.identifier);
      const attacker = await createContact(
        {
          identifier: 'member-attacker',
          identifier_hash: hash(inbox.hmacToken, 'member-attacker'),
          email: 'victim.member@example.com',
        },
        inbox.identifier,
      );
      expect(attacker.source_id).not.toBe(victim.source_id);
      expect(attacker.pubsub_token).not.toBe(victim.pubsub_token);
      const listed = await request(`${contactUrl(inbox.identifier, attacker.source_id)}/conversations`);
      expect((listed.body as Conversation[]).map((item) => item.uuid)).not.toContain(conversation.uuid);
      const [row] = await api.stack.bffSql.query<{ identifier: string }>(
        'SELECT identifier FROM contacts WHERE id = $1',
        [victim.id],
      );
      expect(row!.identifier).toBe('member-victim');
    });
  });
});
