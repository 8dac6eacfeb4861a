import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserStack } from '../test/browser/browser-stack.ts';
import { personSays, send, waitForAnswer, waitReady } from '../test/browser/widget-helpers.ts';
import { packAll } from './pack.ts';
import { hostWebViews } from './web-webview-host.ts';

/**
 * The npm packages of `npm run pack` (issue 35), installed from their tarballs into fresh projects
 * as a user would. The projects sit under the repository (.tmp-pack/, ignored by git) so that what
 * the packages leave to their users (Vite, React, React Native's types) is found in its node_modules.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

/** A fresh project with the tarball installed, offline: nothing may be downloaded. */
async function projectWith(dir: string, tarball: string, extraFlags: string[] = []): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'try-parley', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...extraFlags, tarball], { cwd: dir });
}

/** Builds a Vite app of one module (`main.ts`, or `main.tsx` with aliases); gives the built JavaScript. */
async function buildApp(
  dir: string,
  main: string,
  { entry = 'main.ts', alias = {} }: { entry?: string; alias?: Record<string, string> } = {},
): Promise<string> {
  await writeFile(join(dir, entry), main);
  await writeFile(join(dir, 'index.html'), `<!doctype html><script type="module" src="./${entry}"></script>`);
  await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    resolve: {
      alias: Object.entries(alias).map(([name, target]) => ({ find: new RegExp(`^${name}$`), replacement: target })),
    },
    build: { outDir: 'out', emptyOutDir: true },
  });
  const assets = await readdir(join(dir, 'out', 'assets'));
  return Promise.all(
    assets.filter((file) => file.endsWith('.js')).map((file) => readFile(join(dir, 'out', 'assets', file), 'utf8')),
  ).then((texts) => texts.join('\n'));
}

const listed = async (tarball: string) => (await run('tar', ['-tzf', tarball])).stdout.split('\n').filter(Boolean);

describe('the npm packages, installed from their tarballs', () => {
  const harness = useBrowserStack({ pageServer: true });
  const work = join(ROOT, '.tmp-pack', randomUUID());
  let tarballs: Awaited<ReturnType<typeof packAll>>;

  beforeAll(async () => {
    tarballs = await packAll();
  }, 120_000);
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('packs each with its manifest, declarations and README, and nothing else', async () => {
    expect(tarballs.widget).toMatch(/dist\/packages\/parley-widget-\d+\.\d+\.\d+\.tgz$/);
    expect(tarballs.reactNative).toMatch(/dist\/packages\/parley-react-native-\d+\.\d+\.\d+\.tgz$/);
    for (const tarball of Object.values(tarballs)) {
      const files = await listed(tarball);
      expect(files).toEqual(expect.arrayContaining(['package/package.json', 'package/README.md']));
      expect(files.filter((file) => !/^package\/(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/.test(file))).toEqual(
        [],
      );
      expect(files.some((file) => /test|check/.test(file))).toBe(false);
      const manifest = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as Record<
        string,
        unknown
      >;
      for (const field of ['exports', 'types', 'files', 'sideEffects', 'license', 'repository'])
        expect(manifest, field).toHaveProperty(field);
      expect(manifest['sideEffects']).toBe(false);
      // "UNLICENSED" (npm's word for none granted) until the owner picks a licence, as the README's "Install" says.
      expect(manifest['license']).toEqual(expect.any(String));
      expect(manifest['repository']).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:/) });
    }
  });

  it('@parley/widget builds into a Vite app that opens the chat against the BFF, and adds nothing when unused', async () => {
    const dir = join(work, 'widget-app');
    await projectWith(dir, tarballs.widget);
    // Imported for nothing: no side effects, so the bundle keeps none of it.
    expect(await buildApp(dir, "import '@parley/widget';\nconsole.log('shop');\n")).not.toContain('widget.js');

    const options = JSON.stringify({ baseUrl: harness.stack.url, siteKey: harness.stack.siteKey });
    const bundle = await buildApp(
      dir,
      `import { loadParley, type ParleyEvents } from '@parley/widget';
const parley = loadParley(${options});
const answers: ParleyEvents['message'][] = [];
parley.on('message', (message) => answers.push(message));
Object.assign(window, { answers });
parley.command('open');
`,
    );
    expect(bundle).toContain('widget.js');
    const { page, problems } = await harness.freshPage();
    await page.goto(
      harness.pages.set(
        '/vite-app',
        `<!doctype html><html lang="en"><title>Shop</title><body><h1>Shop</h1><script type="module">${bundle}</script></body></html>`,
      ),
    );
    // The command('open') of the bundle opened it.
    await waitReady(page);
    await send(page, 'How do I return an item?');
    await waitForAnswer(page, 'within 30 days');
    const answers = await page.evaluate(() => (window as unknown as { answers: { author: string }[] }).answers);
    expect(answers.map((answer) => answer.author)).toContain('ai');
    expect(problems).toEqual([]);
  });

  it('@parley/react-native type-checks a React Native screen, and its types catch mistakes', async () => {
    const dir = join(work, 'react-native-app');
    // The app brings react, react-native and react-native-webview (here the repository's own): npm is
    // told not to fetch the peers itself.
    await projectWith(dir, tarballs.reactNative, ['--legacy-peer-deps']);
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          jsx: 'react-jsx',
          lib: ['ES2023'],
          types: [],
          strict: true,
          noEmit: true,
        },
        files: ['screen.tsx'],
      }),
    );
    await writeFile(
      join(dir, 'screen.tsx'),
      `import { useRef, useState } from 'react';
import { ParleyChat, type ParleyChatHandle } from '@parley/react-native';

export function SupportScreen({ token }: { token?: string }) {
  const chat = useRef<ParleyChatHandle>(null);
  const [, setBadge] = useState(0);
  chat.current?.command('setLocale', 'fr');
  chat.current?.command('consent', true);
  // @ts-expect-error no such command
  chat.current?.command('explode');
  // @ts-expect-error baseUrl is required
  void (<ParleyChat siteKey="pk_test_x" />);
  return (
    <ParleyChat
      ref={chat}
      baseUrl="https://chat.example.com"
      siteKey="pk_live_x"
      sessionToken={token}
      style={{ flex: 1 }}
      onEvent={(event, payload) => {
        if (event === 'unread') setBadge(payload.count);
      }}
    />
  );
}
`,
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')]).then(
      () => 'no errors',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(checked).toBe('no errors');
  });

  it('@parley/react-native renders <ParleyChat> with react-native-web: a message through the chat, its answer and unread over the bridge', async () => {
    const dir = join(work, 'react-native-web-app');
    await projectWith(dir, tarballs.reactNative, ['--legacy-peer-deps']);
    const props = JSON.stringify({ baseUrl: harness.stack.url, siteKey: harness.stack.siteKey });
    // A React Native screen as an app writes it; react-native-web draws it, and the WebView is
    // scripts/web-webview.tsx (why that one: its comment).
    const bundle = await buildApp(
      dir,
      `import { useRef, useState } from 'react';
import { AppRegistry, Pressable, Text, View } from 'react-native';
import { ParleyChat, type ParleyChatHandle } from '@parley/react-native';

const events: { event: string; payload: unknown }[] = [];
Object.assign(window, { events });

function SupportScreen() {
  const chat = useRef<ParleyChatHandle>(null);
  const [unread, setUnread] = useState(0);
  return (
    <View style={{ height: 600 }}>
      <Text accessibilityRole="header">Unread: {unread}</Text>
      <Pressable accessibilityRole="button" onPress={() => chat.current?.command('close')}>
        <Text>Hide the chat</Text>
      </Pressable>
      <ParleyChat
        ref={chat}
        {...${props}}
        style={{ flex: 1 }}
        onEvent={(event, payload) => {
          events.push({ event, payload });
          if (event === 'unread') setUnread(payload.count);
        }}
      />
    </View>
  );
}

AppRegistry.registerComponent('SupportScreen', () => SupportScreen);
AppRegistry.runApplication('SupportScreen', { rootTag: document.getElementById('root') });
`,
      {
        entry: 'main.tsx',
        alias: { 'react-native': 'react-native-web', 'react-native-webview': join(ROOT, 'scripts', 'web-webview.tsx') },
      },
    );
    const { page, problems } = await harness.freshPage();
    await hostWebViews(page);
    const script = harness.pages.set('/react-native-app.js', bundle, { 'content-type': 'text/javascript' });
    await page.goto(
      harness.pages.set(
        '/react-native-app',
        `<!doctype html><html lang="en"><title>App</title><body><div id="root"></div><script type="module" src="${script}"></script></body></html>`,
      ),
    );
    const events = () =>
      page.evaluate(() => (window as unknown as { events: { event: string; payload: unknown }[] }).events);
    await expect.poll(async () => (await events()).map(({ event }) => event), { timeout: 15_000 }).toContain('ready');

    // The chat draws in the WebView's frame, on the BFF's origin; the app's page is another origin.
    const chat = page.frameLocator('iframe[title="Chat"]');
    const box = chat.getByRole('textbox', { name: 'Message' });
    await waitReady(page, box);
    await send(page, 'How do I return an item?', box);
    await chat.getByRole('log').getByText('within 30 days').first().waitFor();
    const answers = async () =>
      (await events()).filter(({ event }) => event === 'message').map(({ payload }) => payload);
    await expect
      .poll(answers)
      .toContainEqual(expect.objectContaining({ author: 'ai', text: expect.stringContaining('within 30 days') }));
    const [{ conversation_id: conversationId }] = (await answers()) as [{ conversation_id: string }];

    // Handed to a person, hidden by a command through the component's ref: the person's answer is unread.
    await send(page, 'I want to talk to a person', box);
    await chat.getByText('connected with a person').waitFor();
    await page.getByRole('button', { name: 'Hide the chat' }).click();
    await expect.poll(async () => (await events()).at(-1)?.event).toBe('close');
    await personSays(harness.stack, conversationId, 'Hi, Sam here. How can I help?');
    await expect
      .poll(answers)
      .toContainEqual({ conversation_id: conversationId, author: 'human', text: 'Hi, Sam here. How can I help?' });
    await expect.poll(events).toContainEqual({ event: 'unread', payload: { count: 1 } });
    await expect.poll(() => page.getByRole('heading').textContent()).toBe('Unread: 1');
    expect((await events()).filter(({ event }) => event === 'error')).toEqual([]);
    expect(problems).toEqual([]);
  });
});
