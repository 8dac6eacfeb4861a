import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, type AvailabilityChange } from '../../shared/index.ts';
import { Inbox, SiteKey } from '../../shared/schemas/helpdesk/index.ts';
import { startDeskStack, type CustomerTab, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { desk as call } from '../../test/helpdesk-client.ts';
import { until } from '../../test/until.ts';
import { newVisitor } from '../../test/widget-client.ts';

/**
 * Issue 31: a person switches "Available" and every open widget of the inboxes they answer hears it
 * on its socket (`availability:changed`, a real Socket.IO client over real HTTP, PGlite): its header
 * and its Call button follow without a reload. A widget of an inbox the person does not answer hears
 * nothing.
 */
describe('availability pushed to the widgets of an inbox', () => {
  let desk: DeskStack;
  let shop: CustomerTab;
  let office: CustomerTab;

  beforeAll(async () => {
    desk = await startDeskStack();
    const admin = desk.admin.access_token;
    // Calls on in the shop's inbox (Sam answers it): Call follows Sam's availability too.
    const calls = await desk.app(`/inboxes/${desk.inbox.id}`, admin, {
      method: 'PATCH',
      body: { calls_enabled: true },
    });
    expect(calls.status, JSON.stringify(calls.body)).toBe(200);
    shop = await desk.customerSocket((await newVisitor(desk.stack.url)).token);
    // Another inbox of the account, which only the administrator answers.
    const other = Inbox.parse((await desk.app('/inboxes', admin, { body: { name: `Office ${randomToken(4)}` } })).body);
    const key = SiteKey.parse(
      (await desk.app(`/inboxes/${other.id}/site_keys`, admin, { body: { environment: 'sandbox' } })).body,
    );
    office = await desk.customerSocket((await newVisitor(desk.stack.url, key.key!)).token);
  });
  afterAll(async () => {
    shop?.close();
    office?.close();
    await desk?.stop();
  });

  const switchTo = async (token: string | undefined, availability: string) => {
    const response = await call(`${desk.stack.url}/api/v1/profile`, token, {
      method: 'PATCH',
      body: { account_id: desk.stack.accountId, availability },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };
  const heard = (tab: CustomerTab) =>
    tab.events
      .filter((event) => event.name === 'availability:changed')
      .map((event) => event.data as AvailabilityChange);
  const hears = (tab: CustomerTab, count: number, what: string) =>
    until(
      async () => heard(tab),
      (changes) => changes.length >= count,
      what,
    );

  it("tells the inbox's open widgets when a person who answers it comes and goes, and not another inbox's", async () => {
    await switchTo(desk.agent.access_token, 'online');
    expect((await hears(shop, 1, 'Sam online'))[0]).toEqual({ people_available: true, calls: true });
    await switchTo(desk.agent.access_token, 'busy');
    expect((await hears(shop, 2, 'Sam busy'))[1]).toEqual({ people_available: false, calls: false });
    // The administrator answers every inbox: now the office's widget hears, and it is the first it heard.
    await switchTo(desk.admin.access_token, 'online');
    expect(await hears(office, 1, 'Ada online')).toEqual([{ people_available: true, calls: false }]);
    expect((await hears(shop, 3, 'Ada online in the shop'))[2]).toEqual({ people_available: true, calls: true });
  });

  it('tells no widget when a person who answers no inbox switches', async () => {
    const before = [heard(shop).length, heard(office).length];
    await switchTo(desk.otherAgent.access_token, 'online');
    // Sam's switch comes after Kim's on the same sockets: had Kim's been pushed, it would be heard first.
    await switchTo(desk.agent.access_token, 'online');
    const after = await hears(shop, before[0]! + 1, 'Sam online again');
    expect(after.length).toBe(before[0]! + 1);
    expect(heard(office).length).toBe(before[1]);
  });
});
