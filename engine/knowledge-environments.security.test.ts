import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { issueApiKey } from './index.ts';
import { ACTIONS_MAX } from './store/actions.ts';
import { KNOWLEDGE_DOCUMENTS_MAX } from './store/knowledge.ts';

/**
 * Issue 33: a sandbox key reaches only the sandbox. Knowledge documents and actions belong to an
 * environment; a sandbox key can neither read nor change a live one (404, and nothing changes); a
 * live key copies a sandbox document or action to live (promote), and live customers are answered
 * from live knowledge only.
 */
describe.each(DRIVERS)('knowledge and actions per environment on $name', (driver) => {
  let engine: TestEngine;
  type Options = NonNullable<Parameters<typeof request>[1]>;
  const sandbox = (path: string, options: Options = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const live = (path: string, options: Options = {}) =>
    request(engine.url + path, { token: engine.liveApiKey, ...options });
  const rows = async (table: 'knowledge_documents' | 'actions') =>
    JSON.stringify(
      await engine.sql.query(`SELECT * FROM ${table} WHERE account_id = $1 ORDER BY created_at, environment`, [
        engine.accountId,
      ]),
    );
  /** The AI's reply to `text`, in a new conversation of `key`'s environment. */
  const replyTo = async (key: string, text: string): Promise<string> => {
    const opened = await request(`${engine.url}/v1/conversations`, { token: key, body: { customer_ref: 'env-c' } });
    const sent = await request(`${engine.url}/v1/conversations/${opened.body.id}/messages`, {
      token: key,
      body: { text },
    });
    const reply = (sent.body.events as { type: string; data: { text?: string } }[]).find(
      (event) => event.type === 'conversation.reply',
    );
    return reply?.data.text ?? '';
  };

  beforeAll(async () => {
    engine = await startEngine(driver);
  });
  afterAll(async () => {
    await engine?.stop();
  });

  it('keeps a live document from a sandbox key: reading, listing, changing, approving, deleting and promoting are refused and change nothing', async () => {
    const added = await live('/v1/knowledge', { body: { title: 'Live only', body: 'Live customers read this.' } });
    expect(added.status).toBe(201);
    const id = added.body.id as string;
    const before = await rows('knowledge_documents');
    const attempts: [string, string, object | undefined][] = [
      ['GET', `/v1/knowledge/${id}`, undefined],
      ['PATCH', `/v1/knowledge/${id}`, { title: 'Changed by the sandbox' }],
      ['POST', `/v1/knowledge/${id}/approve`, undefined],
      ['DELETE', `/v1/knowledge/${id}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const response = await sandbox(path, { method, ...(body ? { body } : {}) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    const listed = await sandbox('/v1/knowledge?limit=100');
    expect(listed.body.documents.map((document: { id: string }) => document.id)).not.toContain(id);
    expect((await sandbox(`/v1/knowledge?after=${id}`)).status).toBe(400);
    // Promotion is a live key's act.
    const promoted = await sandbox(`/v1/knowledge/${id}/promote`, { method: 'POST' });
    expect(promoted.status).toBe(403);
    expect(promoted.body.error.code).toBe('forbidden');
    expect(await rows('knowledge_documents')).toBe(before);
    await live(`/v1/knowledge/${id}`, { method: 'DELETE' });
  });

  it('copies a sandbox document to live with a live key, updating the same live copy when promoted again', async () => {
    const topic = {
      title: 'Gift wrapping',
      body: '# Gift wrapping\n\n## Gift wrapping\nWe wrap gifts in recycled paper for 3 euros.',
    };
    const question = 'Do you do gift wrapping?';
    const draft = await sandbox('/v1/knowledge', { body: topic });
    const id = draft.body.id as string;
    await sandbox(`/v1/knowledge/${id}/approve`, { method: 'POST' });
    expect(await replyTo(engine.apiKey, question)).toContain('recycled paper');
    // Not yet live: live customers are not told what only the sandbox knows.
    expect(await replyTo(engine.liveApiKey, question)).not.toContain('recycled paper');
    expect((await live(`/v1/knowledge/${id}/promote`, { method: 'POST' })).status).toBe(201);
    const first = await live('/v1/knowledge?limit=100');
    const copy = first.body.documents.find((document: { title: string }) => document.title === 'Gift wrapping');
    expect(copy).toMatchObject({ approved: true, body: topic.body });
    expect(copy.id).not.toBe(id);
    expect(await replyTo(engine.liveApiKey, question)).toContain('recycled paper');

    // A change in the sandbox reaches live only when promoted again, over the same live document.
    await sandbox(`/v1/knowledge/${id}`, { method: 'PATCH', body: { body: `${topic.body} Ribbons are free.` } });
    expect((await live(`/v1/knowledge/${copy.id}`)).body.body).toBe(topic.body);
    const again = await live(`/v1/knowledge/${id}/promote`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: copy.id, approved: false, body: `${topic.body} Ribbons are free.` });
    // A live id is not a sandbox document: promoting it is 404.
    expect((await live(`/v1/knowledge/${copy.id}/promote`, { method: 'POST' })).status).toBe(404);
    await sandbox(`/v1/knowledge/${id}`, { method: 'DELETE' });
    await live(`/v1/knowledge/${copy.id}`, { method: 'DELETE' });
  });

  it('keeps a live action from a sandbox key, and promotes a sandbox action to live keeping its live URL', async () => {
    const action = {
      description: 'Check a voucher',
      parameters: {
        type: 'object',
        properties: { code: { type: 'string', description: 'The voucher code', pattern: 'V-\\d{4}' } },
        required: ['code'],
      },
      triggers: [['voucher', 'check']],
    };
    expect((await live('/v1/actions/check_voucher', { method: 'PUT', body: action })).status).toBe(201);
    const before = await rows('actions');
    for (const [method, body] of [
      ['GET', undefined],
      ['DELETE', undefined],
    ] as const) {
      const response = await sandbox('/v1/actions/check_voucher', { method, ...(body ? { body } : {}) });
      expect(response.status, method).toBe(404);
    }
    expect((await sandbox('/v1/actions')).body.actions.map((a: { name: string }) => a.name)).not.toContain(
      'check_voucher',
    );
    expect((await sandbox('/v1/actions/check_voucher/promote', { method: 'POST' })).status).toBe(403);
    expect(await rows('actions')).toBe(before);

    // The sandbox's own definition, changed there, reaches live by promotion only.
    const changed = { ...action, description: 'Check a gift voucher' };
    expect((await sandbox('/v1/actions/check_voucher', { method: 'PUT', body: changed })).status).toBe(201);
    expect((await live('/v1/actions/check_voucher')).body.description).toBe('Check a voucher');
    const promoted = await live('/v1/actions/check_voucher/promote', { method: 'POST' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ name: 'check_voucher', description: 'Check a gift voucher' });
    expect((await live('/v1/actions/no_such_action/promote', { method: 'POST' })).status).toBe(404);
    await sandbox('/v1/actions/check_voucher', { method: 'DELETE' });
    await live('/v1/actions/check_voucher', { method: 'DELETE' });
  });

  it('holds the knowledge cap against simultaneous requests', async () => {
    const { accountId } = engine;
    const { key } = await issueApiKey(engine.sql, accountId, 'live');
    const [{ count }] = (await engine.sql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM knowledge_documents WHERE account_id = $1 AND environment = 'live'",
      [accountId],
    )) as [{ count: number }];
    // Filled to two below the cap in one statement, then ten requests at once: exactly two pass.
    await engine.sql.query(
      `INSERT INTO knowledge_documents (id, account_id, environment, title, body)
       SELECT 'doc_fill' || lpad(n::text, 20, '0'), $1, 'live', 'Filler', 'Filler' FROM generate_series(1, $2::int) AS n`,
      [accountId, KNOWLEDGE_DOCUMENTS_MAX - 2 - count],
    );
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        request(`${engine.url}/v1/knowledge`, { token: key, body: { title: `Race ${n}`, body: 'At once.' } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(2);
    expect(answers.filter((answer) => answer.status === 422)).toHaveLength(8);
    const [after] = await engine.sql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM knowledge_documents WHERE account_id = $1 AND environment = 'live'",
      [accountId],
    );
    expect(after!.count).toBe(KNOWLEDGE_DOCUMENTS_MAX);
    await engine.sql.query("DELETE FROM knowledge_documents WHERE account_id = $1 AND environment = 'live'", [
      accountId,
    ]);
  });

  it('holds the action cap against simultaneous requests', async () => {
    const { accountId } = engine;
    await engine.sql.query("DELETE FROM actions WHERE account_id = $1 AND environment = 'sandbox'", [accountId]);
    await engine.sql.query(
      `INSERT INTO actions (account_id, environment, name, description, definition)
       SELECT $1, 'sandbox', 'filler_' || n, 'Filler', '{}'::jsonb FROM generate_series(1, $2::int) AS n`,
      [accountId, ACTIONS_MAX - 2],
    );
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        sandbox(`/v1/actions/race_${n}`, { method: 'PUT', body: { description: `Race ${n}` } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(2);
    expect(answers.filter((answer) => answer.status === 422)).toHaveLength(8);
    const [after] = await engine.sql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM actions WHERE account_id = $1 AND environment = 'sandbox'",
      [accountId],
    );
    expect(after!.count).toBe(ACTIONS_MAX);
  });
});
