import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSql, type Sql } from '../shared/server/index.ts';
import {
  closeServer,
  dropSchemas,
  DRIVERS,
  logger,
  POSTGRES_URL,
  request,
  startEngine,
  uniqueSchemaPrefix,
  type TestEngine,
} from '../test/stack.ts';
import { shopKnowledge } from '../test/shop-fixtures.ts';
import { insertKnowledgeDocument } from './store/knowledge.ts';
import {
  addKnowledgeDocument,
  createAccount,
  createEngine,
  issueApiKey,
  setAccountRateLimit,
  type Engine,
} from './index.ts';

/** A topic the shop's own articles never mention, so an answer about it can only come from the document made here. */
const ENGRAVING = {
  title: 'Engraving',
  body: '# Engraving\n\n## Engraving a watch\nWe engrave watches with up to 20 characters for 15 euros. Engraving adds two working days to the delivery.',
};
const ENGRAVING_QUESTION = 'How does engraving a watch work?';

/** The text of the AI's reply to `question`, asked in a new conversation with `key`. */
async function replyTo(url: string, key: string, question: string): Promise<string> {
  const opened = await request(`${url}/v1/conversations`, { token: key, body: { customer_ref: 'knowledge-customer' } });
  const sent = await request(`${url}/v1/conversations/${opened.body.id}/messages`, {
    token: key,
    body: { text: question },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return (
    (sent.body.events as { type: string; data: { text?: string } }[]).find(
      (event) => event.type === 'conversation.reply',
    )?.data.text ?? ''
  );
}

describe.each(DRIVERS)('the knowledge routes on $name', (driver) => {
  let engine: TestEngine;
  let otherAccountKey: string;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const ask = (question: string) => replyTo(engine.url, engine.apiKey, question);
  const add = async (body: object = ENGRAVING) => {
    const response = await api('/v1/knowledge', { body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as {
      id: string;
      approved: boolean;
      title: string;
      body: string;
      url: string | null;
      locale: string;
      updated_at: string;
    };
  };
  const stored = async () =>
    (await engine.sql.query<{ count: number }>('SELECT count(*)::int AS count FROM knowledge_documents'))[0]!.count;

  beforeAll(async () => {
    engine = await startEngine(driver);
    otherAccountKey = (await engine.issueKey({ otherAccount: true })).key;
  });
  afterAll(() => engine?.stop());

  it('adds a document unapproved, which answers no one until it is approved, and then answers the next question', async () => {
    const document = await add();
    expect(document).toMatchObject({
      id: expect.stringMatching(/^doc_/),
      title: 'Engraving',
      approved: false,
      approved_at: null,
      url: null,
      source: null,
    });
    expect(await ask(ENGRAVING_QUESTION)).not.toContain('15 euros');

    const approved = await api(`/v1/knowledge/${document.id}/approve`, { method: 'POST' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: document.id, approved: true, approved_at: expect.any(String) });
    expect(await ask(ENGRAVING_QUESTION)).toContain('15 euros');
    // Approving again changes nothing.
    expect((await api(`/v1/knowledge/${document.id}/approve`, { method: 'POST' })).body).toEqual(approved.body);
    await api(`/v1/knowledge/${document.id}`, { method: 'DELETE' });
  });

  it('takes the approval away when what a document says changes: its old words stop answering, and approved again its new ones answer', async () => {
    const document = await add();
    await api(`/v1/knowledge/${document.id}/approve`, { method: 'POST' });
    expect(await ask(ENGRAVING_QUESTION)).toContain('15 euros');

    const changed = await api(`/v1/knowledge/${document.id}`, {
      method: 'PATCH',
      body: { body: ENGRAVING.body.replace('15 euros', '19 euros') },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      approved: false,
      approved_at: null,
      body: expect.stringContaining('19 euros'),
    });
    const unapproved = await ask(ENGRAVING_QUESTION);
    expect(unapproved).not.toContain('15 euros');
    expect(unapproved).not.toContain('19 euros');

    await api(`/v1/knowledge/${document.id}/approve`, { method: 'POST' });
    expect(await ask(ENGRAVING_QUESTION)).toContain('19 euros');

    // The values it already has are no change: it stays approved.
    const same = await api(`/v1/knowledge/${document.id}`, { method: 'PATCH', body: { title: 'Engraving' } });
    expect(same.body).toMatchObject({ approved: true });
    // A new address is a change; null takes the address away (also a change).
    const linked = await api(`/v1/knowledge/${document.id}`, {
      method: 'PATCH',
      body: { url: 'https://shop.example/engraving' },
    });
    expect(linked.body).toMatchObject({ url: 'https://shop.example/engraving', approved: false });
    await api(`/v1/knowledge/${document.id}/approve`, { method: 'POST' });
    expect(await ask(ENGRAVING_QUESTION)).toContain('(https://shop.example/engraving)');
    expect((await api(`/v1/knowledge/${document.id}`, { method: 'PATCH', body: { url: null } })).body).toMatchObject({
      url: null,
      approved: false,
    });
    await api(`/v1/knowledge/${document.id}`, { method: 'DELETE' });
  });

  it('answers no more from a deleted document', async () => {
    const document = await add();
    await api(`/v1/knowledge/${document.id}/approve`, { method: 'POST' });
    expect(await ask(ENGRAVING_QUESTION)).toContain('15 euros');
    expect((await api(`/v1/knowledge/${document.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await ask(ENGRAVING_QUESTION)).not.toContain('15 euros');
    expect((await api(`/v1/knowledge/${document.id}`)).status).toBe(404);
    expect((await api(`/v1/knowledge/${document.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('lists the documents oldest first, page by page with a cursor, and by approval', async () => {
    const all = (await api('/v1/knowledge?limit=100')).body as {
      documents: { id: string; approved: boolean }[];
      next: string | null;
      has_more: boolean;
    };
    // The shop's own articles, approved by the test stack.
    expect(all.documents.length).toBeGreaterThan(0);
    expect(all.documents.every((document) => document.approved)).toBe(true);
    const added = [
      await add({ title: 'Paging one', body: 'One.' }),
      await add({ title: 'Paging two', body: 'Two.' }),
      await add({ title: 'Paging three', body: 'Three.' }),
    ];

    const ids: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 50; page++) {
      const response = await api(`/v1/knowledge?limit=2${after ? `&after=${after}` : ''}`);
      expect(response.status).toBe(200);
      ids.push(...response.body.documents.map((document: { id: string }) => document.id));
      after = response.body.next;
      if (!response.body.has_more) break;
    }
    expect(ids).toEqual([...all.documents.map((document) => document.id), ...added.map((document) => document.id)]);
    // A page after the last: empty, its next the cursor sent.
    expect((await api(`/v1/knowledge?after=${ids.at(-1)}`)).body).toEqual({
      documents: [],
      next: ids.at(-1),
      has_more: false,
    });

    const unapproved = (await api('/v1/knowledge?approved=false')).body.documents.map(
      (document: { id: string }) => document.id,
    );
    expect(unapproved).toEqual(added.map((document) => document.id));
    const approved = (await api('/v1/knowledge?approved=true&limit=100')).body.documents.map(
      (document: { id: string }) => document.id,
    );
    expect(approved).toEqual(all.documents.map((document) => document.id));
    for (const document of added) await api(`/v1/knowledge/${document.id}`, { method: 'DELETE' });
  });

  it('lists documents added within one millisecond in the order they were added, across pages', async () => {
    const account = await engine.issueKey({ otherAccount: true });
    // One instant for all (an import, a seed): the ids are random, the order must not be.
    const at = new Date('2026-11-24T09:00:00.000Z');
    const titles = Array.from({ length: 12 }, (_, index) => `Same instant ${String(index).padStart(2, '0')}`);
    for (const title of titles)
      await insertKnowledgeDocument(
        engine.sql,
        { accountId: account.accountId, environment: 'sandbox' },
        { title, body: title, approved: true },
        at,
      );
    const listed: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page++) {
      const response = await request(`${engine.url}/v1/knowledge?limit=5${after ? `&after=${after}` : ''}`, {
        token: account.key,
      });
      expect(response.status).toBe(200);
      listed.push(...response.body.documents.map((document: { title: string }) => document.title));
      after = response.body.next;
      if (!response.body.has_more) break;
    }
    expect(listed).toEqual(titles);
  });

  it('refuses bad input with a 4xx that says what is wrong, and stores or changes nothing', async () => {
    const before = await stored();
    const refusals: [string, Parameters<typeof request>[1], number][] = [
      ['/v1/knowledge', { body: { body: 'No title.' } }, 400],
      ['/v1/knowledge', { body: { title: 'Empty', body: '   ' } }, 400],
      ['/v1/knowledge', { body: { title: 'x'.repeat(201), body: 'Long title.' } }, 400],
      ['/v1/knowledge', { body: { title: 'Script', body: 'Body.', url: 'javascript:alert(1)' } }, 400],
      ['/v1/knowledge', { body: { title: 'Approved', body: 'Body.', approved: true } }, 400],
      ['/v1/knowledge', { body: { title: 'Huge', body: 'x'.repeat(100_001) } }, 400],
      ['/v1/knowledge', { rawBody: '{"title":' }, 400],
      ['/v1/knowledge?limit=0', {}, 400],
      ['/v1/knowledge?limit=101', {}, 400],
      ['/v1/knowledge?approved=yes', {}, 400],
      ['/v1/knowledge?after=nonsense', {}, 400],
      [`/v1/knowledge?after=doc_${'0'.repeat(22)}`, {}, 400],
      ['/v1/knowledge/not-an-id', {}, 400],
      [`/v1/knowledge/doc_${'0'.repeat(22)}`, {}, 404],
      [`/v1/knowledge/doc_${'0'.repeat(22)}/approve`, { method: 'POST' }, 404],
      [`/v1/knowledge/doc_${'0'.repeat(22)}`, { method: 'PATCH', body: { title: 'Nothing' } }, 404],
    ];
    for (const [path, options, status] of refusals) {
      const response = await api(path, options);
      expect(response.status, `${path} ${JSON.stringify(options)}`).toBe(status);
      expect(response.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect(await stored()).toBe(before);

    const document = await add({ title: 'Unchanged', body: 'Stays as it is.' });
    await api(`/v1/knowledge/${document.id}/approve`, { method: 'POST' });
    for (const body of [
      {},
      { title: '' },
      { body: 'x'.repeat(100_001) },
      { url: 'ftp://shop.example/file' },
      { approved: false },
    ]) {
      const response = await api(`/v1/knowledge/${document.id}`, { method: 'PATCH', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api(`/v1/knowledge/${document.id}`)).body).toMatchObject({
      title: 'Unchanged',
      body: 'Stays as it is.',
      approved: true,
    });
    await api(`/v1/knowledge/${document.id}`, { method: 'DELETE' });
  });

  it('keeps the language of a document: English when none is given, the tag given otherwise, listed by language', async () => {
    const account = await engine.issueKey({ otherAccount: true });
    const post = (body: object) => request(`${engine.url}/v1/knowledge`, { token: account.key, body });
    const english = await post({ title: 'Returns', body: 'Thirty days to return.' });
    expect(english.status).toBe(201);
    expect(english.body).toMatchObject({ locale: 'en', approved: false });
    const german = await post({ title: 'Rücksendungen', body: 'Dreißig Tage Rückgabe.', locale: 'de' });
    expect(german.body).toMatchObject({ locale: 'de' });
    const brazilian = await post({ title: 'Devoluções', body: 'Trinta dias.', locale: 'pt-BR' });
    expect(brazilian.body).toMatchObject({ locale: 'pt-BR' });
    expect((await request(`${engine.url}/v1/knowledge/${german.body.id}`, { token: account.key })).body).toMatchObject({
      locale: 'de',
    });

    const list = async (query: string) =>
      (await request(`${engine.url}/v1/knowledge${query}`, { token: account.key })).body.documents.map(
        (document: { id: string; locale: string }) => [document.id, document.locale],
      );
    expect(await list('')).toEqual([
      [english.body.id, 'en'],
      [german.body.id, 'de'],
      [brazilian.body.id, 'pt-BR'],
    ]);
    expect(await list('?locale=de')).toEqual([[german.body.id, 'de']]);
    // A language tag lists that tag only: pt is not pt-BR.
    expect(await list('?locale=pt')).toEqual([]);
    expect(await list('?locale=pt-BR&approved=false')).toEqual([[brazilian.body.id, 'pt-BR']]);
  });

  it('takes the approval away when the language of a document changes, as a change of its address does', async () => {
    const document = await add({ ...ENGRAVING, locale: 'de' });
    expect(document.locale).toBe('de');
    await api(`/v1/knowledge/${document.id}/approve`, { method: 'POST' });

    // Its own language again is no change: it stays approved.
    const same = await api(`/v1/knowledge/${document.id}`, { method: 'PATCH', body: { locale: 'de' } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ locale: 'de', approved: true });

    const moved = await api(`/v1/knowledge/${document.id}`, { method: 'PATCH', body: { locale: 'en' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ locale: 'en', approved: false, approved_at: null, title: 'Engraving' });
    expect(moved.body.updated_at).not.toBe(same.body.updated_at);
    // A change of something else leaves the language as it is.
    const retitled = await api(`/v1/knowledge/${document.id}`, { method: 'PATCH', body: { title: 'Engravings' } });
    expect(retitled.body).toMatchObject({ locale: 'en', title: 'Engravings' });
    await api(`/v1/knowledge/${document.id}`, { method: 'DELETE' });
  });

  it('refuses a language that is not a tag such as de or pt-BR, and stores or changes nothing', async () => {
    const before = await stored();
    const document = await add({ title: 'Unchanged language', body: 'Stays in German.', locale: 'de' });
    await api(`/v1/knowledge/${document.id}/approve`, { method: 'POST' });
    for (const locale of ['DE', 'de_DE', 'de-de', 'deu', 'german', 'pt-BRA', 'de-', '', ' de', 42, null]) {
      const created = await api('/v1/knowledge', { body: { title: 'Bad language', body: 'Body.', locale } });
      expect(created.status, `create with ${JSON.stringify(locale)}`).toBe(400);
      expect(created.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('locale') });
      const changed = await api(`/v1/knowledge/${document.id}`, { method: 'PATCH', body: { locale } });
      expect(changed.status, `change to ${JSON.stringify(locale)}`).toBe(400);
      expect(changed.body.error.code).toBe('invalid_request');
    }
    const listed = await api('/v1/knowledge?locale=DE');
    expect(listed.status).toBe(400);
    expect(listed.body.error.code).toBe('invalid_request');
    expect(await stored()).toBe(before + 1);
    expect((await api(`/v1/knowledge/${document.id}`)).body).toMatchObject({ locale: 'de', approved: true });
    await api(`/v1/knowledge/${document.id}`, { method: 'DELETE' });
  });

  it("refuses every route without a valid key, keeps accounts apart, and keeps a sandbox key's documents from the live key", async () => {
    const document = await add({ title: 'Shared', body: 'Both keys see it.' });
    const routes: [string, string, object | undefined][] = [
      ['GET', '/v1/knowledge', undefined],
      ['POST', '/v1/knowledge', { title: 'Intruder', body: 'Should not be kept.' }],
      ['GET', `/v1/knowledge/${document.id}`, undefined],
      ['PATCH', `/v1/knowledge/${document.id}`, { title: 'Taken over' }],
      ['DELETE', `/v1/knowledge/${document.id}`, undefined],
      ['POST', `/v1/knowledge/${document.id}/approve`, undefined],
    ];
    const before = await stored();
    for (const [method, path, body] of routes) {
      for (const token of [
        '',
        'service_test_wrong',
        engine.apiKey.replace(/.$/, (last) => (last === 'a' ? 'b' : 'a')),
      ]) {
        const response = await request(engine.url + path, { method, token, ...(body ? { body } : {}) });
        expect(response.status, `${method} ${path} with ${token || 'no key'}`).toBe(401);
        expect(response.body.error.code).toBe('unauthorized');
      }
      // Another account's key: its own list, and no document of this account.
      const foreign = await request(engine.url + path, { method, token: otherAccountKey, ...(body ? { body } : {}) });
      if (path === '/v1/knowledge' && method === 'GET') expect(foreign.body.documents).toEqual([]);
      else if (path === '/v1/knowledge') expect(foreign.status).toBe(201);
      else expect(foreign.status, `${method} ${path} with another account's key`).toBe(404);
    }
    expect(await stored()).toBe(before + 1);
    expect((await api(`/v1/knowledge/${document.id}`)).body).toMatchObject({ title: 'Shared', approved: false });

    // The documents are the environment's: a live key neither reads nor approves what a sandbox key added
    // (knowledge-environments.security.test.ts tries every route both ways).
    const live = (path: string, options: Parameters<typeof request>[1] = {}) =>
      request(engine.url + path, { token: engine.liveApiKey, ...options });
    expect((await live(`/v1/knowledge/${document.id}`)).status).toBe(404);
    expect((await live(`/v1/knowledge/${document.id}/approve`, { method: 'POST' })).status).toBe(404);
    expect((await api(`/v1/knowledge/${document.id}`)).body.approved).toBe(false);
    expect((await api(`/v1/knowledge/${document.id}`, { method: 'DELETE' })).status).toBe(204);
  });
});

/**
 * Two engine processes on one PostgreSQL, each with its own knowledge cache (here two engines with
 * pools of their own in this process): what one changes, the other answers with at once.
 */
describe('knowledge changes seen by another engine process on PostgreSQL', () => {
  const prefix = uniqueSchemaPrefix();
  const engines: { engine: Engine; sql: Sql; server: Server; url: string }[] = [];
  let key: string;

  beforeAll(async () => {
    for (let index = 0; index < 2; index++) {
      const sql = await openSql({ databaseUrl: POSTGRES_URL, schema: `${prefix}engine` });
      const engine = await createEngine({ sql, logger });
      const server = createServer(engine.app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      engines.push({ engine, sql, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    }
    const accountId = await createAccount(engines[0]!.sql, 'Two processes');
    await setAccountRateLimit(engines[0]!.sql, accountId, 'sandbox', 100_000);
    for (const document of await shopKnowledge())
      await addKnowledgeDocument(engines[0]!.sql, accountId, { ...document, approved: true });
    key = (await issueApiKey(engines[0]!.sql, accountId, 'sandbox')).key;
  });
  afterAll(async () => {
    for (const { server, sql, engine } of engines) {
      await closeServer(server);
      await engine.webhooks.stop();
      await sql.close();
    }
    await dropSchemas(POSTGRES_URL, prefix);
  });

  it('answers from a document approved through the other process, and stops at once when it is changed or deleted there', async () => {
    const [first, second] = engines as [(typeof engines)[0], (typeof engines)[0]];
    const onFirst = (path: string, options: Parameters<typeof request>[1] = {}) =>
      request(first.url + path, { token: key, ...options });
    const document = (await onFirst('/v1/knowledge', { body: ENGRAVING })).body as { id: string };
    // The second process builds its knowledge base now, before the approval.
    expect(await replyTo(second.url, key, ENGRAVING_QUESTION)).not.toContain('15 euros');
    await onFirst(`/v1/knowledge/${document.id}/approve`, { method: 'POST' });
    expect(await replyTo(second.url, key, ENGRAVING_QUESTION)).toContain('15 euros');

    // A change and a new approval in quick succession, each through the first process, each seen by the second.
    await onFirst(`/v1/knowledge/${document.id}`, {
      method: 'PATCH',
      body: { body: ENGRAVING.body.replace('15 euros', '21 euros') },
    });
    expect(await replyTo(second.url, key, ENGRAVING_QUESTION)).not.toMatch(/15 euros|21 euros/);
    await onFirst(`/v1/knowledge/${document.id}/approve`, { method: 'POST' });
    expect(await replyTo(second.url, key, ENGRAVING_QUESTION)).toContain('21 euros');

    await onFirst(`/v1/knowledge/${document.id}`, { method: 'DELETE' });
    expect(await replyTo(second.url, key, ENGRAVING_QUESTION)).not.toContain('21 euros');
  });
});
