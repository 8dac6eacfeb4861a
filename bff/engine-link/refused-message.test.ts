import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, DRIVERS, startEngine, startStack, type TestEngine, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import {
  byAuthor,
  closeSockets,
  connect,
  customerTurns,
  engineIdOf,
  FAST_RETRIES,
  pendingOf,
  statusesOf,
  widgetClient,
} from '../../test/upstream-fixture.ts';

/** The words of the message the engine refuses. */
const UNREADABLE = 'a message the engine cannot read';

/**
 * In front of the real engine, refuses the one message whose text is UNREADABLE for good (422
 * `unprocessable`, as the engine answers a message its brain cannot read), and passes everything
 * else through. A stand-in: the engine itself refuses no single message of an open conversation
 * now (issue 26 made a 100,000-character word answerable), so only this can make it refuse one
 * while the next still gets its answer.
 */
async function startRefusingProxy(engineUrl: string) {
  const refused: string[] = [];
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      if (incoming.method === 'POST' && incoming.url?.endsWith('/messages') && body.toString().includes(UNREADABLE)) {
        refused.push(incoming.url);
        outgoing.writeHead(422, { 'content-type': 'application/json' });
        outgoing.end(
          JSON.stringify({
            error: {
              code: 'unprocessable',
              message: 'The AI cannot read this message. Send it shorter, or in several messages.',
            },
          }),
        );
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(incoming.headers).flatMap(([name, value]) =>
          typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name) ? [[name, value]] : [],
        ),
      );
      const answer = await fetch(engineUrl + incoming.url, {
        method: incoming.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      outgoing.writeHead(
        answer.status,
        Object.fromEntries(
          [...answer.headers].filter(
            ([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name),
          ),
        ),
      );
      outgoing.end(Buffer.from(await answer.arrayBuffer()));
    })().catch((error: unknown) => outgoing.destroy(error as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused,
    close: () => closeServer(server),
  };
}

describe('a message the engine refuses for good', () => {
  let engine: TestEngine;
  let proxy: Awaited<ReturnType<typeof startRefusingProxy>>;
  let stack: TestStack;
  const widget = widgetClient(
    () => stack.url,
    () => stack.siteKey,
  );

  beforeAll(async () => {
    engine = await startEngine(DRIVERS[0]);
    proxy = await startRefusingProxy(engine.url);
    stack = await startStack(
      DRIVERS[0],
      { AI_API_URL: proxy.url, AI_API_KEY: engine.apiKeys },
      { relayRetryDelaysMs: FAST_RETRIES, feedPollMs: 0 },
    );
  });
  afterAll(async () => {
    closeSockets();
    await stack?.stop();
    await proxy?.close();
    await engine?.stop();
  });

  it('is marked failed, tried once, and does not hold up the message after it, which gets its answer', async () => {
    const token = await widget.visitor();
    const conversationId = await widget.openConversation(token);
    const tab = await connect(stack.url, token);

    const refused = await widget.send(token, conversationId, UNREADABLE, 'refused-for-good');
    const after = await widget.send(token, conversationId, 'How do I return an item?', 'asked-after');
    expect([refused.status, after.status]).toEqual([201, 201]);

    const [answer] = await until(
      () => byAuthor(tab.created, 'ai'),
      (answers) => answers.length > 0,
      'the answer to the message after the refused one',
    );
    expect(answer!.text).toContain('within 30 days');
    await until(
      () => statusesOf(tab.updated, refused.body.id as number),
      (statuses) => statuses.length > 0,
      'the verdict on the refused message',
    );
    await stack.bff.relay.settled();
    await tab.barrier(conversationId);

    expect(statusesOf(tab.updated, refused.body.id as number)).toEqual(['failed']);
    const stored = await widget.messages(token, conversationId);
    expect(stored.map((message) => [message.author, message.text.slice(0, 24), message.status])).toEqual([
      ['customer', UNREADABLE.slice(0, 24), 'failed'],
      ['customer', 'How do I return an item?', 'read'],
      ['ai', answer!.text.slice(0, 24), 'sent'],
    ]);
    expect(proxy.refused).toHaveLength(1);
    expect(stack.bff.relay.backlog).toBe(0);
    expect(await pendingOf(stack, conversationId)).toEqual([]);
    expect(await customerTurns(engine, await engineIdOf(stack, conversationId))).toEqual(['How do I return an item?']);
  });
});
