import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openBffStore, readSetting } from '../bff/index.ts';
import { startNodeScript, type RunningScript } from '../test/node-script.ts';
import { logger, request } from '../test/stack.ts';
import { until } from '../test/until.ts';
import { readDemoConfig } from './config.ts';
import { runDemo } from './run-demo.ts';
import { DEMO_SHOP } from './shop.ts';
import { DEMO_AGENT } from './seed.ts';

/**
 * `npm start` seeds a demo agent who answers the demo inbox, and prints a one-time link that signs
 * them in to the agent console: demo/start.ts as its own process, twice on one data folder.
 */
describe('the demo agent of npm start', () => {
  const started: RunningScript[] = [];
  const folders: string[] = [];
  afterAll(async () => {
    for (const script of started) script.child.kill('SIGKILL');
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  /** Runs demo/start.ts on `dataDir` until it has printed its addresses; gives them. */
  async function start(
    dataDir: string,
  ): Promise<{ url: string; console: string; signInUrl: string; password: string; script: RunningScript }> {
    const script = startNodeScript('demo/start.ts', [], { PORT: '0', ENGINE_PORT: '0', DATA_DIR: dataDir });
    started.push(script);
    const output = await until(
      () => {
        if (script.child.exitCode !== null)
          throw new Error(`demo/start.ts stopped (${script.child.exitCode}): ${script.output()}`);
        return script.output();
      },
      (text) => text.includes('sign in as the demo agent'),
      'demo/start.ts to print its addresses',
      60_000,
    );
    const line = (pattern: RegExp) => pattern.exec(output)?.[1] ?? `(not printed: ${pattern})`;
    return {
      url: line(/^ {2}Parley is running: (\S+)$/m),
      console: line(/^ {2}Agent console: (\S+)$/m),
      signInUrl: line(/^ {2}sign in as the demo agent \(once, within 5 minutes\): (\S+)$/m),
      password: line(new RegExp(`^ {2}or with e-mail ${DEMO_AGENT.email} and password (\\S+) `, 'm')),
      script,
    };
  }

  async function stop(script: RunningScript): Promise<void> {
    script.child.kill('SIGTERM');
    expect(await script.exited, script.output()).toBe(0);
  }

  const signIn = (url: string, token: string) => request(`${url}/api/v1/sessions`, { body: { sign_in_token: token } });

  it('makes the agent once, a member of the demo inbox, and prints a new link at every start that signs them in once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parley-demo-agent-'));
    folders.push(dataDir);

    const tokens: string[] = [];
    for (let run = 0; run < 2; run++) {
      const demo = await start(dataDir);
      expect(demo.console).toBe(`${demo.url}/console`);
      expect(demo.signInUrl).toMatch(new RegExp(`^${demo.url}/console/#sign_in_token=[0-9A-Za-z]{32}$`));
      const token = demo.signInUrl.split('#sign_in_token=')[1]!;
      tokens.push(token);

      const session = await signIn(demo.url, token);
      expect(session.status, JSON.stringify(session.body)).toBe(200);
      expect(session.body.user).toMatchObject({ name: DEMO_AGENT.name, email: DEMO_AGENT.email });
      const again = await signIn(demo.url, token);
      expect(again.status).toBe(401);
      expect(again.body.errors[0].code).toBe('unauthorized');
      // The printed password signs in too (a new tab, another day: no new link needed).
      const withPassword = await request(`${demo.url}/api/v1/sessions`, {
        body: { email: DEMO_AGENT.email, password: demo.password },
      });
      expect(withPassword.status, demo.password).toBe(200);
      await stop(demo.script);
    }
    expect(tokens[1]).not.toBe(tokens[0]);

    // What the two starts left in the store: one agent, in the demo account and its inbox.
    const sql = await openBffStore({ dataDir, databaseUrl: undefined });
    try {
      const agents = await sql.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [DEMO_AGENT.email]);
      expect(agents).toHaveLength(1);
      const agentId = agents[0]!.id;
      const inboxId = await readSetting(sql, 'demo_inbox_id');
      const [inbox] = await sql.query<{ account_id: number }>('SELECT account_id FROM inboxes WHERE id = $1', [
        inboxId,
      ]);
      expect(
        await sql.query('SELECT user_id, role FROM account_users WHERE account_id = $1', [inbox!.account_id]),
      ).toEqual([{ user_id: agentId, role: 'administrator' }]);
      expect(await sql.query('SELECT user_id FROM inbox_members WHERE inbox_id = $1', [inboxId])).toEqual([
        { user_id: agentId },
      ]);
      expect(
        await sql.query('SELECT count(*)::int AS links FROM sign_in_links WHERE user_id = $1 AND used_at IS NOT NULL', [
          agentId,
        ]),
      ).toEqual([{ links: 2 }]);
    } finally {
      await sql.close();
    }
  }, 180_000);

  it('points the link at PUBLIC_URL, takes DEMO_AGENT_PASSWORD, and dresses a new demo as the shop of the screenshots', async () => {
    const demo = await runDemo(
      readDemoConfig({
        PORT: '0',
        ENGINE_PORT: '0',
        DATA_DIR: 'memory://',
        PUBLIC_URL: 'https://chat.example.com',
        DEMO_AGENT_PASSWORD: 'a demo password',
      }),
      logger,
    );
    try {
      expect(demo.agentSignInUrl).toMatch(/^https:\/\/chat\.example\.com\/console\/#sign_in_token=[0-9A-Za-z]{32}$/);
      expect((await signIn(demo.url, demo.agentSignInUrl.split('#sign_in_token=')[1]!)).status).toBe(200);
      expect(demo.agent).toEqual({ email: DEMO_AGENT.email, password: 'a demo password' });
      const session = await request(`${demo.url}/api/v1/sessions`, {
        body: { email: DEMO_AGENT.email, password: 'a demo password' },
      });
      expect(session.status).toBe(200);
      const inboxes = await request(`${demo.url}/api/v1/accounts/${demo.accountId}/inboxes`, {
        headers: { api_access_token: session.body.access_token },
      });
      expect(inboxes.body.payload[0]).toMatchObject({ name: DEMO_SHOP.name, email: DEMO_SHOP.email });
    } finally {
      await demo.close();
    }
  });
});
