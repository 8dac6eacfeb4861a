import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AccountUser,
  ApiKey,
  AuditLogPage,
  Inbox,
  PlatformAccount,
  SiteKey,
  User,
} from '../../shared/schemas/helpdesk/index.ts';
import { desk } from '../helpdesk-client.ts';
import { request } from '../stack.ts';
import { useBrowserStack } from './browser-stack.ts';
import { ARTIFACTS_DIR } from './chromium.ts';

/**
 * An operator sets up a shop through the helpdesk APIs alone, over HTTP: an account, a person who
 * administers it; the administrator gets the account's API key and gives its AI a knowledge
 * document with it (the new account's engine account starts with none), then makes an inbox with a
 * live site key for the shop's origin; the shop's page then has a working widget in Chromium that
 * answers from that document, and the audit log shows every step.
 */
describe('an operator sets up a shop with the APIs alone', () => {
  const harness = useBrowserStack({ pageServer: true });
  let platformToken: string;
  beforeAll(() => {
    // The stack made the platform token on its first start, as `npm start` does (and printed it once).
    platformToken = harness.stack.newPlatformToken!;
    expect(platformToken).toMatch(/^[0-9A-Za-z]{32}$/);
  });

  it('creates account, user, account user, API key and knowledge, inbox and live key; the widget answers on that origin; the audit log shows each step', async () => {
    const bffOrigin = `http://localhost:${new URL(harness.stack.url).port}`;
    const shopOrigin = `http://localhost:${new URL(harness.pages.origin).port}`;
    const platform = (path: string, body: unknown) =>
      desk(`${harness.stack.url}/platform/api/v1${path}`, platformToken, { body });

    const account = PlatformAccount.parse((await platform('/accounts', { name: 'Bakery on the corner' })).body);
    const owner = User.parse((await platform('/users', { name: 'Bea Baker', email: 'bea@bakery.example' })).body);
    AccountUser.parse(
      (await platform(`/accounts/${account.id}/account_users`, { user_id: owner.id, role: 'administrator' })).body,
    );

    const app = (path: string, body?: unknown) =>
      desk(
        `${harness.stack.url}/api/v1/accounts/${account.id}${path}`,
        owner.access_token,
        body === undefined ? {} : { body },
      );

    // The account's own engine account knows nothing yet: the administrator gets its API key (shown
    // this once) and adds the shop's returns article with it, as the shop's server would.
    const apiKeyAnswer = await app('/api_keys', { environment: 'live' });
    expect(apiKeyAnswer.status).toBe(201);
    const apiKey = ApiKey.parse(apiKeyAnswer.body);
    expect(apiKey.key).toMatch(/^service_live_/);
    expect(((await app('/api_keys')).body as ApiKey[])[0]).not.toHaveProperty('key');
    const article = await readFile(new URL('../../demo/knowledge/returns.md', import.meta.url), 'utf8');
    const engine = (path: string, body: unknown) =>
      request(`${harness.stack.engineUrl}${path}`, { token: apiKey.key!, body });
    const added = await engine('/v1/knowledge', { title: /^#\s+(.+)$/m.exec(article)![1]!, body: article });
    expect(added.status).toBe(201);
    expect((await engine(`/v1/knowledge/${added.body.id}/approve`, {})).body).toMatchObject({ approved: true });

    const inboxAnswer = await app('/inboxes', {
      name: 'Bakery website',
      greeting_message: 'Fresh bread daily. Ask away!',
      allowed_origins: [shopOrigin],
    });
    expect(inboxAnswer.status).toBe(200);
    const inbox = Inbox.parse(inboxAnswer.body);
    expect(inbox.hmac_token).toMatch(/^[0-9A-Za-z]{32}$/);
    const keyAnswer = await app(`/inboxes/${inbox.id}/site_keys`, {
      environment: 'live',
      allowed_origins: [shopOrigin],
    });
    const key = SiteKey.parse(keyAnswer.body);
    expect(key.key).toMatch(/^pk_live_/);
    expect(((await app(`/inboxes/${inbox.id}/site_keys`)).body as SiteKey[])[0]).not.toHaveProperty('key');

    harness.pages.set(
      '/',
      `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Bakery</title></head>
       <body><h1>Bakery on the corner</h1><script src="${bffOrigin}/widget.js" data-site-key="${key.key}" async></script></body></html>`,
    );
    const { page, problems } = await harness.freshPage();
    await page.goto(`${shopOrigin}/`);
    await page.getByRole('button', { name: /chat/i }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill('How do I return an item?');
    await box.press('Enter');
    await page.getByRole('log').getByText('within 30 days of delivery').waitFor();
    await page.screenshot({ path: `${ARTIFACTS_DIR}/operator-flow.png` });
    expect(problems).toEqual([]);
    const [row] = await harness.stack.bffSql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM conversations c JOIN inboxes i ON i.id = c.inbox_id WHERE i.account_id = $1',
      [account.id],
    );
    expect(row!.count).toBe(1);

    const log = AuditLogPage.parse((await app('/audit_logs?sort=asc')).body);
    expect(log.audit_logs.map((entry) => `${entry.auditable_type} ${entry.action} by ${entry.user_type}`)).toEqual([
      'Account create by PlatformApp',
      'AccountUser create by PlatformApp',
      'ApiKey create by User',
      'Inbox create by User',
      'SiteKey create by User',
    ]);
    // Revoking the key stops new visitors at once, and is logged too.
    expect(
      (
        await desk(
          `${harness.stack.url}/api/v1/accounts/${account.id}/inboxes/${inbox.id}/site_keys/${key.id}`,
          owner.access_token,
          { method: 'DELETE' },
        )
      ).status,
    ).toBe(200);
    const refused = await fetch(`${harness.stack.url}/v1/widget-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, origin: shopOrigin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    expect(AuditLogPage.parse((await app('/audit_logs')).body).audit_logs[0]).toMatchObject({
      auditable_type: 'SiteKey',
      action: 'destroy',
    });
  });
});
