import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HelpArticle, HelpArticleList, randomToken } from '../../shared/index.ts';
import { request, startEngine, startStack, type TestEngine, type TestStack } from '../../test/stack.ts';
import { newVisitor } from '../../test/widget-client.ts';
import { WIDGET_REQUESTS_PER_MINUTE } from '../host/app.ts';

/**
 * Issue 16, the widget's help search: `GET /v1/widget/help/articles?q=` and `/{id}` give approved
 * knowledge only, read with the key of the customer's own environment. The BFF here holds a sandbox
 * key of one engine account (the shop's articles) and a live key of ANOTHER account (one article of
 * its own), so a cache or key mixed up between environments would show up as a leak. The shop's
 * articles are English, with a few in German (one Swiss German); the other account's are English only.
 */
describe('the widget help articles', () => {
  const liveSiteKey = `pk_live_${randomToken(24)}`;
  let engine: TestEngine;
  let stack: TestStack;
  let sandboxToken: string;
  let liveToken: string;
  const ids: Record<string, string> = {};

  const get = (path: string, token: string | undefined) =>
    request(`${stack.url}/v1/widget/help${path}`, token === undefined ? {} : { token });
  const titles = async (token: string, q?: string, locale?: string) => {
    const query = new URLSearchParams({
      ...(q === undefined ? {} : { q }),
      ...(locale === undefined ? {} : { locale }),
    });
    const response = await get(`/articles?${query}`, token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return HelpArticleList.parse(response.body).articles.map((article) => article.title);
  };

  /** Adds a knowledge document through the engine's API, approved unless told; gives its id. */
  async function addArticle(
    apiKey: string,
    document: { title: string; body: string; url?: string; locale?: string },
    approved = true,
  ): Promise<string> {
    const added = await request(`${engine.url}/v1/knowledge`, { token: apiKey, body: document });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    if (approved)
      expect(
        (await request(`${engine.url}/v1/knowledge/${added.body.id}/approve`, { token: apiKey, method: 'POST' }))
          .status,
      ).toBe(200);
    return added.body.id as string;
  }

  beforeAll(async () => {
    engine = await startEngine();
    // Another account of the same engine, made as an operator makes one.
    const other = await request(`${engine.url}/operator/v1/accounts`, {
      token: engine.operatorToken,
      body: { name: 'Another shop', requests_per_minute: { live: 100_000 } },
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const otherLiveKey = other.body.keys.live as string;
    ids['draft'] = await addArticle(
      engine.apiKey,
      { title: 'Returns for staff only (draft)', body: 'Not approved yet.' },
      false,
    );
    ids['changing'] = await addArticle(engine.apiKey, {
      title: 'Gift cards',
      body: '## Gift cards\nThey never expire.',
      url: 'https://shop.example/gift-cards',
    });
    ids['rücksendung'] = await addArticle(engine.apiKey, {
      title: 'Rücksendung und Erstattung',
      body: '## Rücksendung\nInnerhalb von 30 Tagen.',
      locale: 'de',
    });
    await addArticle(engine.apiKey, { title: 'Versand und Lieferung', body: 'Zwei bis drei Tage.', locale: 'de' });
    await addArticle(engine.apiKey, { title: 'Zahlung auf Rechnung', body: 'In der Schweiz.', locale: 'de-CH' });
    await addArticle(engine.apiKey, { title: 'Versand (Entwurf)', body: 'Noch nicht geprüft.', locale: 'de' }, false);
    ids['other'] = await addArticle(otherLiveKey, {
      title: 'Returns at the other shop',
      body: 'Only for the other shop.',
    });
    // The stack's BFF speaks to this engine: sandbox customers with the shop's key, live ones with the other account's.
    stack = await startStack(undefined, {
      AI_API_URL: engine.url,
      AI_API_KEY: `${engine.apiKey},${otherLiveKey}`,
      DEMO_LIVE_SITE_KEY: liveSiteKey,
    });
    sandboxToken = (await newVisitor(stack.url, stack.siteKey)).token;
    liveToken = (await newVisitor(stack.url, liveSiteKey, { origin: stack.url })).token;
  });
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
  });

  it('finds approved titles by every word of q, ignoring case and accents, in the knowledge base’s order', async () => {
    expect(await titles(sandboxToken, 'RETURNS')).toEqual(['Returns and refunds']);
    // Counted against the customer's widget limit, as every /v1/widget route.
    expect((await get('/articles?q=returns', sandboxToken)).headers.get('x-ratelimit-limit')).toBe(
      String(WIDGET_REQUESTS_PER_MINUTE),
    );
    expect(await titles(sandboxToken, 'and')).toEqual(['Returns and refunds', 'Shipping and delivery']);
    expect(await titles(sandboxToken, 'shipping delivery')).toEqual(['Shipping and delivery']);
    expect(await titles(sandboxToken, 'shïpping')).toEqual(['Shipping and delivery']);
    expect(await titles(sandboxToken, 'nothing like this')).toEqual([]);
    // Without q: the knowledge base's first articles (the home screen's questions when the inbox sets none).
    const first = await titles(sandboxToken);
    expect(first.slice(0, 3)).toEqual(['Your account', 'Orders', 'Payments']);
    expect(first.length).toBeLessThanOrEqual(10);
  });

  it('opens an approved article with its markdown, and never an unapproved one', async () => {
    const [found] = HelpArticleList.parse((await get('/articles?q=gift', sandboxToken)).body).articles;
    const article = HelpArticle.parse((await get(`/articles/${found!.id}`, sandboxToken)).body);
    expect(article).toEqual({
      id: ids['changing'],
      title: 'Gift cards',
      body: '## Gift cards\nThey never expire.',
      url: 'https://shop.example/gift-cards',
    });

    expect(await titles(sandboxToken, 'staff')).toEqual([]);
    expect((await get(`/articles/${ids['draft']}`, sandboxToken)).body).toMatchObject({ error: { code: 'not_found' } });
    // A change takes the approval away: the article is refused at once, even while its title is cached.
    expect(
      (
        await request(`${engine.url}/v1/knowledge/${ids['changing']}`, {
          token: engine.apiKey,
          method: 'PATCH',
          body: { body: '## Gift cards\nThey expire after a year.' },
        })
      ).status,
    ).toBe(200);
    expect((await get(`/articles/${ids['changing']}`, sandboxToken)).status).toBe(404);
  });

  it("lists a visitor the articles in their widget's language only, searched in that language", async () => {
    const german = ['Rücksendung und Erstattung', 'Versand und Lieferung', 'Zahlung auf Rechnung'];
    expect(await titles(sandboxToken, undefined, 'de')).toEqual(german);
    // The language decides, not the region: de-AT reads de and de-CH articles.
    expect(await titles(sandboxToken, undefined, 'de-AT')).toEqual(german);
    expect(await titles(sandboxToken, 'rucksendung', 'de')).toEqual(['Rücksendung und Erstattung']);
    expect(await titles(sandboxToken, 'Lieferung', 'de-AT')).toEqual(['Versand und Lieferung']);
    expect(await titles(sandboxToken, 'returns', 'de')).toEqual([]);
    expect(await titles(sandboxToken, 'versand', 'de')).not.toContain('Versand (Entwurf)');
    // English visitors, and callers that name no language, see no German.
    expect((await titles(sandboxToken, undefined, 'en')).slice(0, 3)).toEqual(['Your account', 'Orders', 'Payments']);
    expect(await titles(sandboxToken, 'versand', 'en')).toEqual([]);
    expect(await titles(sandboxToken, 'versand')).toEqual([]);
    expect(await titles(sandboxToken, 'returns', 'en-GB')).toEqual(['Returns and refunds']);
    // An article found in German opens as it is.
    const article = HelpArticle.parse((await get(`/articles/${ids['rücksendung']}`, sandboxToken)).body);
    expect(article.title).toBe('Rücksendung und Erstattung');
  });

  it('falls back to the English articles when none is approved in the visitor’s language', async () => {
    expect(await titles(sandboxToken, 'returns', 'ja')).toEqual(['Returns and refunds']);
    const japanese = await titles(sandboxToken, undefined, 'ja');
    expect(japanese.slice(0, 3)).toEqual(['Your account', 'Orders', 'Payments']);
    expect(japanese.filter((title) => /Versand|Rücksendung|Zahlung/.test(title))).toEqual([]);
    expect(await titles(sandboxToken, 'returns', 'pt-BR')).toEqual(['Returns and refunds']);
    // Per account: the other shop writes no German, so its German visitors read its English.
    expect(await titles(liveToken, undefined, 'de')).toEqual(['Returns at the other shop']);
  });

  it("keeps each environment to its own engine account's articles", async () => {
    expect(await titles(liveToken, 'returns')).toEqual(['Returns at the other shop']);
    expect(await titles(sandboxToken, 'returns')).toEqual(['Returns and refunds']);
    expect((await get(`/articles/${ids['other']}`, sandboxToken)).status).toBe(404);
    expect((await get(`/articles/${ids['other']}`, liveToken)).status).toBe(200);
  });

  it('refuses a bad q or locale with 400, unknown ids with 404, and callers without a session token with 401', async () => {
    for (const q of ['x'.repeat(101)])
      expect((await get(`/articles?q=${q}`, sandboxToken)).body).toMatchObject({ error: { code: 'invalid_request' } });
    expect((await get('/articles?q=a&q=b', sandboxToken)).status).toBe(400);
    expect((await get('/articles?limit=5', sandboxToken)).status).toBe(400);
    for (const locale of ['de<script>', 'de_DE', 'deutsch', '1', '', `de-${'x'.repeat(40)}`])
      expect(
        (await get(`/articles?locale=${encodeURIComponent(locale)}&q=returns`, sandboxToken)).body,
        locale,
      ).toMatchObject({ error: { code: 'invalid_request' } });
    expect((await get('/articles?locale=de&locale=fr', sandboxToken)).status).toBe(400);
    // Refused without a trace: the same visitor's next good request is answered as ever.
    expect(await titles(sandboxToken, 'returns', 'en')).toEqual(['Returns and refunds']);
    for (const id of ['doc_0000000000000000', 'not-an-id', 'x'.repeat(101)])
      expect((await get(`/articles/${id}`, sandboxToken)).status, id).toBeGreaterThanOrEqual(400);
    expect((await get('/articles/doc_0000000000000000', sandboxToken)).status).toBe(404);
    expect((await get('/articles/not-an-id', sandboxToken)).status).toBe(404);
    expect((await get('/articles', undefined)).status).toBe(401);
    expect((await get('/articles', 'wst_forged')).status).toBe(401);
    expect((await get('/articles', engine.apiKey)).status).toBe(401);
  });

  it('lists the routes and their query in the OpenAPI document', async () => {
    type Paths = Record<string, { get?: { parameters?: { name: string }[] } }>;
    const paths = ((await request(`${stack.url}/openapi.json`)).body as { paths: Paths }).paths;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining(['/v1/widget/help/articles', '/v1/widget/help/articles/{id}']),
    );
    expect(paths['/v1/widget/help/articles']?.get?.parameters?.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['q', 'locale']),
    );
  });
});
