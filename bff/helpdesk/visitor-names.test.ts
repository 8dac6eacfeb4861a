import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_KEY, request } from '../../test/stack.ts';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0';

/**
 * An unknown customer is named for the people by what their browser told when their widget session
 * started (issue 31): the time zone the widget sends and the browser's name from its User-Agent,
 * without a geo-IP database. On PGlite, over real HTTP.
 */
describe('visitors named by what their browser told', () => {
  let desk: DeskStack;
  beforeAll(async () => {
    desk = await startDeskStack();
  });
  afterAll(() => desk?.stop());

  async function visit(body: Record<string, unknown>, agent = FIREFOX) {
    const session = await request(`${desk.stack.url}/v1/widget-sessions`, {
      token: DEMO_SITE_KEY,
      body,
      headers: { 'user-agent': agent },
    });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    return session.body as { token: string; customer_ref: string };
  }

  async function rowOf(token: string) {
    const opened = await request(`${desk.stack.url}/v1/widget/conversations`, { token, body: {} });
    expect(opened.status).toBe(201);
    const uuid = (opened.body as { id: string }).id;
    const rows = await desk.list(desk.admin.access_token, '?status=all');
    return rows.payload.find((row) => row.uuid === uuid)!;
  }

  it('shows the time zone, its place and the browser on the contact of the list row', async () => {
    const { token } = await visit({ time_zone: 'Europe/Berlin' });
    const row = await rowOf(token);
    expect(row.contact.additional_attributes).toEqual({
      time_zone: 'Europe/Berlin',
      city: 'Berlin',
      browser: 'Firefox',
    });
  });

  it('ignores a time zone that is not an Area/Place, and a renewal without one keeps the one known', async () => {
    const first = await visit({ time_zone: 'America/Argentina/Buenos_Aires' }, 'curl/8.5.0');
    const renewed = await visit({ token: first.token, time_zone: '<img src=x>' });
    expect(renewed.customer_ref).toBe(first.customer_ref);
    const row = await rowOf(renewed.token);
    expect(row.contact.additional_attributes).toEqual({
      time_zone: 'America/Argentina/Buenos_Aires',
      city: 'Buenos Aires',
      browser: 'Firefox',
    });
    const unknown = await visit({ time_zone: 'x'.repeat(65) }, '');
    expect((await rowOf(unknown.token)).contact.additional_attributes).toEqual({ browser: 'a browser' });
  });

  it('refuses a time zone that is not a string with 400, as any malformed body', async () => {
    const refused = await request(`${desk.stack.url}/v1/widget-sessions`, {
      token: DEMO_SITE_KEY,
      body: { time_zone: 42 },
    });
    expect(refused.status).toBe(400);
  });
});
