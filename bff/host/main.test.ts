import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetMessage } from '../../shared/index.ts';
import { runNodeScript, startNodeScript, type RunningScript } from '../../test/node-script.ts';
import { freePort, request, startEngine, type TestEngine } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { openBffStore } from './infrastructure.ts';
import { addSiteKey, createInbox } from '../store/inboxes.ts';

/**
 * `npm run bff`: bff/host/main.ts as its own process, in front of a real engine started here (the
 * engine alone, with a sandbox account and the demo knowledge base), as a BFF reaches an engine
 * elsewhere.
 */
describe('npm run bff: the BFF alone, in front of an engine elsewhere', () => {
  let engine: TestEngine;
  const started: RunningScript[] = [];
  const folders: string[] = [];

  beforeAll(async () => {
    engine = await startEngine();
  });
  afterAll(async () => {
    for (const script of started) script.child.kill('SIGKILL');
    await engine?.stop();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  /** Starts bff/host/main.ts on a free port and waits until it answers `GET /openapi.json`. */
  async function startBff(env: Record<string, string> = {}): Promise<{ url: string; script: RunningScript }> {
    const port = await freePort();
    const script = startNodeScript('bff/host/main.ts', [], {
      PORT: String(port),
      AI_API_URL: engine.url,
      AI_API_KEY: engine.apiKeys,
      DATA_DIR: 'memory://',
      ...env,
    });
    started.push(script);
    const url = `http://127.0.0.1:${port}`;
    await until(
      async () => {
        if (script.child.exitCode !== null)
          throw new Error(`bff/host/main.ts stopped (${script.child.exitCode}): ${script.output()}`);
        return fetch(`${url}/openapi.json`).then(
          (response) => response.status,
          () => 0,
        );
      },
      (status) => status === 200,
      'the BFF to answer GET /openapi.json',
      45_000,
    );
    return { url, script };
  }

  async function stopWithSigterm(script: RunningScript): Promise<void> {
    script.child.kill('SIGTERM');
    expect(await script.exited, script.output()).toBe(0);
  }

  it('answers GET /openapi.json with its document, and stops cleanly on SIGTERM, letting go of its port', async () => {
    const { url, script } = await startBff();
    const document = await request(`${url}/openapi.json`);
    expect(document.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(document.body.paths)).toContain('/v1/widget-sessions');

    await stopWithSigterm(script);
    await expect(fetch(`${url}/openapi.json`)).rejects.toThrow();
  }, 90_000);

  it("serves a visitor of an inbox kept in its store, with the engine's answer; a verified customer lands in the oldest inbox", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parley-bff-main-'));
    folders.push(dataDir);
    const sql = await openBffStore({ dataDir, databaseUrl: undefined });
    const first = await createInbox(sql, { name: 'First shop' });
    const second = await createInbox(sql, { name: 'Second shop' });
    const { key: siteKey } = await addSiteKey(sql, second.id, 'sandbox');
    await sql.close();

    const { url, script } = await startBff({ DATA_DIR: dataDir });
    const { token } = await newVisitor(url, siteKey);
    const config = await request(`${url}/v1/widget/config`, { token });
    expect(config.body.inbox.name).toBe('Second shop');
    const conversation = await openWidgetConversation(url, token);
    expect((await sendWidgetMessage(url, token, conversation.id, 'How do I return an item?', 'main-1')).status).toBe(
      201,
    );
    const messages = await until(
      async () =>
        (await request(`${url}/v1/widget/conversations/${conversation.id}/messages`, { token })).body
          .messages as WidgetMessage[],
      (list) => list.some((message) => message.author === 'ai'),
      "the engine's answer",
    );
    expect(messages.find((message) => message.author === 'ai')!.text).toContain('within 30 days');

    // A token made with the API key names no inbox: it belongs to the default, the oldest inbox.
    const verified = await request(`${url}/v1/widget-sessions`, {
      token: engine.apiKey,
      body: { customer_ref: 'customer-1' },
    });
    expect(verified.status).toBe(201);
    const verifiedConfig = await request(`${url}/v1/widget/config`, { token: verified.body.token });
    expect(verifiedConfig.body.inbox.name).toBe(first.name);

    await stopWithSigterm(script);
  }, 90_000);

  it('does not start when the engine refuses its key, and says which variable is wrong', async () => {
    const unknownKey = `service_test_${'x'.repeat(32)}`;
    const result = await runNodeScript('bff/host/main.ts', [], {
      PORT: '0',
      AI_API_URL: engine.url,
      AI_API_KEY: unknownKey,
      DATA_DIR: 'memory://',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ {2}AI_API_KEY: the engine at \S+ answered 401/m);
  }, 60_000);

  it('does not start on bad configuration, and names every bad variable', async () => {
    const result = await runNodeScript('bff/host/main.ts', [], {
      PORT: 'eighty',
      AI_API_URL: engine.url,
      REDIS_URL: 'localhost:6379',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^The configuration is not valid:$/m);
    expect(result.stderr.match(/^ {2}(\w+):/gm)).toEqual(['  PORT:', '  AI_API_KEY:', '  REDIS_URL:']);
  }, 60_000);
});
