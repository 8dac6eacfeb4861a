import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, WidgetConfig } from '../../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { newVisitor } from '../../test/widget-client.ts';
import { Inbox, InboxList, SiteKey, User } from '../../shared/schemas/helpdesk/index.ts';

const GERMAN = {
  welcome_title_translations: { de: 'Hallo, Gärtnerin' },
  welcome_tagline_translations: { de: 'Wir helfen bei Pflanzen und Bestellungen.', fr: 'Nous aidons.' },
  suggested_questions_translations: { de: ['Wo ist meine Bestellung?', 'Liefern Sie ins Ausland?'] },
};

/**
 * Issue 28: the home screen's welcome title, tagline and suggested questions in the widget's other
 * languages, as the greeting already is — set through the Application API by an administrator,
 * given by the widget's config in the widget's language (else the inbox's own), refused with 422
 * `unprocessable` and the field when bad, changing nothing. Both stores: the translations are jsonb.
 */
describe.each(DRIVERS)('welcome translations of an inbox on $name', (driver) => {
  let stack: TestStack;
  let admin: User;
  let agent: User;

  const app = (path: string, token: string | undefined, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, token, options);
  const platform = (path: string, body: unknown) =>
    desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });

  /** A new inbox of the account with `settings`, and a visitor's session token on it. */
  async function inboxWithVisitor(settings: object) {
    const made = await app('/inboxes', admin.access_token, { body: { name: 'Garden shop', ...settings } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const inbox = Inbox.parse(made.body);
    const key = SiteKey.parse(
      (await app(`/inboxes/${inbox.id}/site_keys`, admin.access_token, { body: { environment: 'sandbox' } })).body,
    );
    return { inbox, token: (await newVisitor(stack.url, key.key!)).token };
  }
  const configOf = async (token: string, locale?: string) => {
    const response = await request(`${stack.url}/v1/widget/config${locale ? `?locale=${locale}` : ''}`, { token });
    expect(response.status).toBe(200);
    return WidgetConfig.parse(response.body).inbox;
  };
  const welcomeOf = async (token: string, locale?: string) => {
    const { welcome_title, welcome_tagline, suggested_questions, greeting } = await configOf(token, locale);
    return { welcome_title, welcome_tagline, suggested_questions, greeting };
  };

  beforeAll(async () => {
    stack = await startStack(driver, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    const person = async (name: string, role: string) => {
      const user = User.parse((await platform('/users', { name, email: `${randomToken(8)}@welcome.example` })).body);
      await platform(`/accounts/${stack.accountId}/account_users`, { user_id: user.id, role });
      return user;
    };
    admin = await person('Ada', 'administrator');
    agent = await person('Sam', 'agent');
  });
  afterAll(() => stack?.stop());

  it("keeps the translations given, returns them, and gives a German visitor's widget the German welcome and questions", async () => {
    const { inbox, token } = await inboxWithVisitor({
      greeting_message: 'Hello gardener!',
      greeting_translations: { de: 'Hallo!' },
      welcome_title: 'Hi, gardener',
      welcome_tagline: 'We help with plants and orders.',
      suggested_questions: ['Where is my order?'],
      ...GERMAN,
      suggested_questions_translations: { de: ['  Wo ist meine Bestellung?  ', 'Liefern Sie ins Ausland?'] },
    });
    expect(inbox).toMatchObject(GERMAN);
    expect((await app(`/inboxes/${inbox.id}`, admin.access_token)).body).toMatchObject(GERMAN);
    const list = InboxList.parse((await app('/inboxes', admin.access_token)).body).payload;
    expect(list.find((each) => each.id === inbox.id)).toMatchObject(GERMAN);

    const german = {
      welcome_title: 'Hallo, Gärtnerin',
      welcome_tagline: 'Wir helfen bei Pflanzen und Bestellungen.',
      suggested_questions: ['Wo ist meine Bestellung?', 'Liefern Sie ins Ausland?'],
      greeting: 'Hallo!',
    };
    expect(await welcomeOf(token, 'de')).toEqual(german);
    expect(await welcomeOf(token, 'de-AT')).toEqual(german);
    // Each setting falls back on its own: French has only a tagline, Japanese nothing.
    expect(await welcomeOf(token, 'fr')).toEqual({
      welcome_title: 'Hi, gardener',
      welcome_tagline: 'Nous aidons.',
      suggested_questions: ['Where is my order?'],
      greeting: 'Hello gardener!',
    });
    const english = {
      welcome_title: 'Hi, gardener',
      welcome_tagline: 'We help with plants and orders.',
      suggested_questions: ['Where is my order?'],
      greeting: 'Hello gardener!',
    };
    expect(await welcomeOf(token, 'ja')).toEqual(english);
    expect(await welcomeOf(token)).toEqual(english);
  });

  it('gives a translation where the inbox has no text of its own, and replaces or removes translations on PATCH', async () => {
    const { inbox, token } = await inboxWithVisitor({ ...GERMAN });
    expect(await welcomeOf(token)).toEqual({
      welcome_title: undefined,
      welcome_tagline: undefined,
      suggested_questions: undefined,
      greeting: '',
    });
    expect((await welcomeOf(token, 'de')).welcome_title).toBe('Hallo, Gärtnerin');

    const changed = await app(`/inboxes/${inbox.id}`, admin.access_token, {
      method: 'PATCH',
      body: { welcome_title_translations: { es: 'Hola' }, suggested_questions_translations: {} },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      welcome_title_translations: { es: 'Hola' },
      welcome_tagline_translations: GERMAN.welcome_tagline_translations,
      suggested_questions_translations: {},
    });
    expect(await welcomeOf(token, 'de')).toEqual({
      welcome_title: undefined,
      welcome_tagline: 'Wir helfen bei Pflanzen und Bestellungen.',
      suggested_questions: undefined,
      greeting: '',
    });
    expect((await welcomeOf(token, 'es')).welcome_title).toBe('Hola');
  });

  it('refuses bad translations with 422 unprocessable and the field, on PATCH and when made, keeping nothing of them', async () => {
    const { inbox } = await inboxWithVisitor({ ...GERMAN });
    const bad: [string, unknown][] = [
      ['welcome_title_translations', { xx: 'Hallo' }],
      ['welcome_title_translations', { 'de-AT': 'Servus' }],
      ['welcome_title_translations', { de: 'x'.repeat(201) }],
      ['welcome_title_translations', { de: '   ' }],
      ['welcome_title_translations', ['Hallo']],
      ['welcome_title_translations', 'Hallo'],
      ['welcome_tagline_translations', { de: 'x'.repeat(501) }],
      ['welcome_tagline_translations', { klingon: 'Qapla’' }],
      ['welcome_tagline_translations', { de: 42 }],
      ['suggested_questions_translations', { de: ['eins', 'zwei', 'drei', 'vier'] }],
      ['suggested_questions_translations', { de: ['x'.repeat(121)] }],
      ['suggested_questions_translations', { de: [] }],
      ['suggested_questions_translations', { de: ['  '] }],
      ['suggested_questions_translations', { de: 'Wo ist meine Bestellung?' }],
      ['suggested_questions_translations', { zz: ['Where?'] }],
    ];
    const before = (await app(`/inboxes/${inbox.id}`, admin.access_token)).body;
    for (const [field, value] of bad) {
      // Beside a good change that must not be kept either.
      const response = await app(`/inboxes/${inbox.id}`, admin.access_token, {
        method: 'PATCH',
        body: { welcome_title: 'Changed', [field]: value },
      });
      const shown = `${field}: ${JSON.stringify(value).slice(0, 80)}`;
      expect(response.status, shown).toBe(422);
      expect(response.body, shown).toMatchObject({
        errors: expect.arrayContaining([
          expect.objectContaining({ field: expect.stringMatching(new RegExp(`^${field}`)), code: 'unprocessable' }),
        ]),
      });
    }
    expect((await app(`/inboxes/${inbox.id}`, admin.access_token)).body).toEqual(before);

    const count = async () => InboxList.parse((await app('/inboxes', admin.access_token)).body).payload.length;
    const inboxes = await count();
    const made = await app('/inboxes', admin.access_token, {
      body: { name: 'Bad welcome', suggested_questions_translations: { de: ['1', '2', '3', '4'] } },
    });
    expect(made.status).toBe(422);
    expect(await count()).toBe(inboxes);
  });

  it("refuses an agent's or an unknown caller's change with 401, changing nothing", async () => {
    const { inbox } = await inboxWithVisitor({ ...GERMAN });
    const change = { method: 'PATCH', body: { welcome_title_translations: { de: 'Geändert' } } };
    expect((await app(`/inboxes/${inbox.id}`, agent.access_token, change)).status).toBe(401);
    expect((await app(`/inboxes/${inbox.id}`, undefined, change)).status).toBe(401);
    expect((await app(`/inboxes/${inbox.id}`, 'not-a-token', change)).status).toBe(401);
    expect(Inbox.parse((await app(`/inboxes/${inbox.id}`, admin.access_token)).body)).toMatchObject(GERMAN);
  });

  it('is in the OpenAPI document of the inbox, keyed by the widget languages', async () => {
    const document = (await request(`${stack.url}/openapi.json`)).body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    };
    const patch = document.paths['/api/v1/accounts/{account_id}/inboxes/{inbox_id}']!['patch']!;
    const schema = JSON.stringify(patch.requestBody!.content['application/json']!.schema);
    for (const field of [
      'welcome_title_translations',
      'welcome_tagline_translations',
      'suggested_questions_translations',
    ]) {
      expect(schema).toContain(`"${field}"`);
    }
    expect(schema).toContain('"de"');
  });
});
