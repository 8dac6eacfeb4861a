import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WidgetConfig } from '../../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { newVisitor } from '../../test/widget-client.ts';
import { Inbox, SiteKey, User } from '../../shared/schemas/helpdesk/index.ts';
import { inLocale, isAway } from '../store/inbox-presentation.ts';

/**
 * Issue 16: what an inbox shows before the first message and in the widget's header — the logo,
 * welcome title and tagline, reply time, suggested questions, greeting translations, a public email
 * and working hours — set through the Application API (by people the Platform API made), read by
 * the widget's config in the widget's language and by the Client API; bad values are refused with
 * 422 and the field they concern. Both stores: the settings hold a text array and jsonb.
 */
describe.each(DRIVERS)('inbox presentation settings on $name', (driver) => {
  let stack: TestStack;
  let accountId: number;
  let admin: User;

  const app = (path: string, options: { method?: string; body?: unknown } = {}) =>
    desk(`${stack.url}/api/v1/accounts/${accountId}${path}`, admin.access_token, options);
  const platform = (path: string, body: unknown) =>
    desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });

  /** A new inbox of the account with `settings`, and a visitor's session token on it. */
  async function inboxWithVisitor(settings: object) {
    const made = await app('/inboxes', { body: { name: 'Garden shop', ...settings } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const inbox = Inbox.parse(made.body);
    const key = SiteKey.parse((await app(`/inboxes/${inbox.id}/site_keys`, { body: { environment: 'sandbox' } })).body);
    const visitor = await newVisitor(stack.url, key.key!);
    return { inbox, token: visitor.token };
  }
  const configOf = async (token: string, locale?: string) => {
    const response = await request(`${stack.url}/v1/widget/config${locale ? `?locale=${locale}` : ''}`, { token });
    expect(response.status).toBe(200);
    return WidgetConfig.parse(response.body).inbox;
  };

  beforeAll(async () => {
    stack = await startStack(driver, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN });
    accountId = stack.accountId;
    admin = User.parse(
      (await platform('/users', { name: 'Ada', email: `ada-${driver.name.toLowerCase()}@presentation.example` })).body,
    );
    await platform(`/accounts/${accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
  });
  afterAll(() => stack?.stop());

  it('keeps the settings given when an inbox is made and changed, and shows them in the widget config', async () => {
    const { inbox, token } = await inboxWithVisitor({
      greeting_message: 'Hello gardener!',
      avatar_url: 'https://garden.example/logo.png',
      welcome_title: 'Hi there 👋',
      welcome_tagline: 'We help with plants and orders.',
      reply_time: 'in_a_few_hours',
      suggested_questions: ['Where is my order?', '  How do I return a plant?  '],
      greeting_translations: { ar: 'مرحبا أيها البستاني!', de: 'Hallo!' },
      email: 'help@garden.example',
    });
    expect(inbox).toMatchObject({
      avatar_url: 'https://garden.example/logo.png',
      welcome_title: 'Hi there 👋',
      reply_time: 'in_a_few_hours',
      suggested_questions: ['Where is my order?', 'How do I return a plant?'],
      greeting_translations: { ar: 'مرحبا أيها البستاني!', de: 'Hallo!' },
      email: 'help@garden.example',
    });
    expect(await configOf(token)).toEqual({
      name: 'Garden shop',
      greeting: 'Hello gardener!',
      color: '#1f3a5f',
      locale: 'en',
      avatar_url: 'https://garden.example/logo.png',
      reply_time: 'in_a_few_hours',
      welcome_title: 'Hi there 👋',
      welcome_tagline: 'We help with plants and orders.',
      suggested_questions: ['Where is my order?', 'How do I return a plant?'],
      email: 'help@garden.example',
    });
    // The greeting follows the widget's language when the inbox has it, the inbox's own otherwise.
    expect((await configOf(token, 'ar')).greeting).toBe('مرحبا أيها البستاني!');
    expect((await configOf(token, 'de-AT')).greeting).toBe('Hallo!');
    expect((await configOf(token, 'ja')).greeting).toBe('Hello gardener!');
    expect((await request(`${stack.url}/v1/widget/config?locale=%3Cscript%3E`, { token })).status).toBe(400);

    // '' and [] take a setting away: the widget then shows nothing for it.
    const changed = await app(`/inboxes/${inbox.id}`, {
      method: 'PATCH',
      body: { avatar_url: '', email: '', suggested_questions: [], reply_time: null },
    });
    expect(changed.body).toMatchObject({
      avatar_url: '',
      email: '',
      suggested_questions: [],
      reply_time: null,
      welcome_title: 'Hi there 👋',
    });
    const config = await configOf(token);
    expect([config.avatar_url, config.email, config.suggested_questions, config.reply_time]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    // Reading the inbox back gives what was stored, not what was sent.
    expect((await app(`/inboxes/${inbox.id}`)).body).toMatchObject({
      welcome_tagline: 'We help with plants and orders.',
      greeting_translations: { ar: 'مرحبا أيها البستاني!', de: 'Hallo!' },
    });
  });

  it('refuses bad presentation settings with 422 and the field, and keeps nothing of them', async () => {
    const { inbox } = await inboxWithVisitor({});
    const bad: [string, unknown][] = [
      ['avatar_url', 'http://garden.example/logo.png'],
      ['avatar_url', 'javascript:alert(1)'],
      ['avatar_url', 'https://garden.example/javascript:alert(1)'],
      ['avatar_url', `https://garden.example/${'a'.repeat(2000)}.png`],
      ['avatar_url', 'data:image/png;base64,AAAA'],
      ['avatar_url', 'https://user:secret@garden.example/logo.png'],
      ['avatar_url', 'https://garden.example/%E0%A4%A/java%73cript:alert(1)'],
      ['avatar_url', 'https://garden.example/java%2573cript:alert(1)'],
      ['reply_time', 'in_a_week'],
      ['suggested_questions', ['one', 'two', 'three', 'four']],
      ['suggested_questions', ['x'.repeat(121)]],
      ['suggested_questions', ['  ']],
      ['suggested_questions', 'Where is my order?'],
      ['greeting_translations', { xx: 'Hello' }],
      ['greeting_translations', { ar: '' }],
      ['greeting_translations', ['Hello']],
      ['email', 'not an email'],
      ['welcome_title', 'x'.repeat(201)],
      ['working_hours', [{ day_of_week: 1, open_all_day: true }]],
      ['working_hours', Array.from({ length: 7 }, () => ({ day_of_week: 1, open_all_day: true }))],
      ['working_hours', Array.from({ length: 7 }, (_, day) => ({ day_of_week: day, open_hour: 17, close_hour: 9 }))],
      ['working_hours', Array.from({ length: 7 }, (_, day) => ({ day_of_week: day, open_hour: 25, close_hour: 26 }))],
    ];
    for (const [field, value] of bad) {
      const response = await app(`/inboxes/${inbox.id}`, { method: 'PATCH', body: { [field]: value } });
      expect(response.status, `${field}: ${JSON.stringify(value).slice(0, 80)}`).toBe(422);
      expect(JSON.stringify(response.body), field).toContain(field);
    }
    expect((await app('/inboxes', { body: { name: 'Bad logo', avatar_url: 'javascript:alert(1)' } })).status).toBe(422);
    expect((await app(`/inboxes/${inbox.id}`)).body).toMatchObject({
      avatar_url: '',
      reply_time: null,
      suggested_questions: [],
      greeting_translations: {},
      email: '',
    });
  });

  it('shows the working hours to the Client API and marks the widget away outside them, with the away message', async () => {
    const week = (day: object) => Array.from({ length: 7 }, (_, day_of_week) => ({ day_of_week, ...day }));
    const { inbox, token } = await inboxWithVisitor({
      timezone: 'Asia/Tokyo',
      working_hours_enabled: true,
      working_hours: week({ closed_all_day: true }),
      out_of_office_message: 'We are away; the AI still answers.',
    });
    expect(await configOf(token)).toMatchObject({
      away: true,
      out_of_office_message: 'We are away; the AI still answers.',
    });
    const publicInbox = (await request(`${stack.url}/public/api/v1/inboxes/${inbox.inbox_identifier}`)).body as {
      working_hours: { closed_all_day: boolean }[];
      working_hours_enabled: boolean;
    };
    expect(publicInbox.working_hours_enabled).toBe(true);
    expect(publicInbox.working_hours).toHaveLength(7);
    expect(publicInbox.working_hours.every((day) => day.closed_all_day)).toBe(true);

    await app(`/inboxes/${inbox.id}`, { method: 'PATCH', body: { working_hours: week({ open_all_day: true }) } });
    expect((await configOf(token)).away).toBeUndefined();
    // Closed all week but the hours are off: never away.
    await app(`/inboxes/${inbox.id}`, {
      method: 'PATCH',
      body: { working_hours: week({ closed_all_day: true }), working_hours_enabled: false },
    });
    expect((await configOf(token)).away).toBeUndefined();
  });
});

describe('working hours, read in the inbox’s time zone', () => {
  const weekdays = (open: object) =>
    Array.from({ length: 7 }, (_, day_of_week) => ({
      day_of_week,
      closed_all_day: false,
      open_all_day: false,
      open_hour: null,
      open_minutes: null,
      close_hour: null,
      close_minutes: null,
      ...open,
    }));
  const nineToFive = weekdays({ open_hour: 9, open_minutes: 0, close_hour: 17, close_minutes: 30 });

  it('is open from the opening minute until the closing minute, in the zone’s own clock', () => {
    // Monday 2026-11-23 in Tokyo (UTC+9).
    expect(isAway(nineToFive, 'Asia/Tokyo', new Date('2026-11-23T00:00:00Z'))).toBe(false); // 09:00
    expect(isAway(nineToFive, 'Asia/Tokyo', new Date('2026-11-22T23:59:00Z'))).toBe(true); // 08:59
    expect(isAway(nineToFive, 'Asia/Tokyo', new Date('2026-11-23T08:29:00Z'))).toBe(false); // 17:29
    expect(isAway(nineToFive, 'Asia/Tokyo', new Date('2026-11-23T08:30:00Z'))).toBe(true); // 17:30
    // The same instant is 01:00 in Berlin.
    expect(isAway(nineToFive, 'Europe/Berlin', new Date('2026-11-23T00:00:00Z'))).toBe(true);
  });

  it('is away all of a closed day and on a day the schedule does not hold', () => {
    const sundayClosed = nineToFive.map((day) => (day.day_of_week === 0 ? { ...day, closed_all_day: true } : day));
    expect(isAway(sundayClosed, 'UTC', new Date('2026-11-22T12:00:00Z'))).toBe(true); // Sunday noon
    expect(isAway(sundayClosed, 'UTC', new Date('2026-11-23T12:00:00Z'))).toBe(false); // Monday noon
    expect(isAway(nineToFive.slice(1), 'UTC', new Date('2026-11-22T12:00:00Z'))).toBe(true);
  });

  it('gives a setting in the language asked for, its base language, or the inbox’s own', () => {
    const translations = { ar: 'مرحبا', pt: 'Olá' };
    expect(inLocale('Hello', translations, 'ar')).toBe('مرحبا');
    expect(inLocale('Hello', translations, 'pt-BR')).toBe('Olá');
    expect(inLocale('Hello', translations, 'fr')).toBe('Hello');
    expect(inLocale('Hello', translations, undefined)).toBe('Hello');
    expect(inLocale(['Where is my order?'], { de: ['Wo ist meine Bestellung?'] }, 'DE')).toEqual([
      'Wo ist meine Bestellung?',
    ]);
  });
});
