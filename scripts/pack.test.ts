import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserStack } from '../test/browser/browser-stack.ts';
import { send, waitForAnswer, waitReady } from '../test/browser/widget-helpers.ts';
import { packAll } from './pack.ts';

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

/** Builds a Vite app of one module; gives the built JavaScript. */
async function buildApp(dir: string, main: string): Promise<string> {
  await writeFile(join(dir, 'main.ts'), main);
  await writeFile(join(dir, 'index.html'), '<!doctype html><script type="module" src="./main.ts"></script>');
  await build({ root: dir, configFile: false, logLevel: 'silent', build: { outDir: 'out', emptyOutDir: true } });
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
});
