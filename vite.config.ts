import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Three widget builds and the tests:
 * - `vite build` builds the chat app (`dist/widget/app.js` + chunks), an ES module the loader imports;
 * - `vite build --mode loader` builds the loader (`dist/widget/widget.js`), a classic script for the
 *   `<script async>` tag, kept apart so that nothing of the app can leak into it;
 * - `vite build --mode hosted` builds the hosted chat page's script (`dist/widget/chat.js`), an ES
 *   module that imports `app.js` at run time like the loader does;
 * - `vite build --mode console` builds the agent console (`dist/console/console.js`), served at `/console/`.
 */
const WEBSOCKET_ONLY = fileURLToPath(new URL('./widget/app/engine-websocket-only.ts', import.meta.url));
const SOCKET_PARSER = fileURLToPath(new URL('./widget/app/socket-parser.ts', import.meta.url));

export default defineConfig(({ mode }) => {
  const loader = mode === 'loader';
  const hosted = mode === 'hosted';
  const desk = mode === 'console';
  return {
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    // The app's Socket.IO client speaks WebSocket only (see widget/app/engine-websocket-only.ts).
    plugins: [
      {
        name: 'parley-websocket-only',
        enforce: 'pre' as const,
        resolveId(source: string, importer: string | undefined) {
          if (source === './transports/index.js' && importer?.includes('/engine.io-client/')) return WEBSOCKET_ONLY;
          // Text frames only: no binary attachments (see widget/app/socket-parser.ts).
          if (source === 'socket.io-parser' && importer?.includes('/socket.io-client/')) return SOCKET_PARSER;
          return null;
        },
        // engine.io-client's entry re-exports its long-polling transport, whose module code runs on
        // import (an XMLHttpRequest probe and a pagehide handler) and so kept all of it in app.js
        // (about 0.7 KB gzip) though the widget never polls that way. Nothing imports it for its effects.
        transform(_code: string, id: string) {
          if (/\/engine\.io-client\/build\/esm\/(transports\/polling-xhr|contrib\/has-cors)\.js$/.test(id))
            return { moduleSideEffects: false };
          return null;
        },
      },
    ],
    build: {
      outDir: desk ? 'dist/console' : 'dist/widget',
      emptyOutDir: desk || (!loader && !hosted),
      // Evergreen browsers; ES2022 keeps class private fields as they are instead of WeakMap helpers.
      target: 'es2022',
      minify: true,
      sourcemap: false,
      reportCompressedSize: true,
      // Library mode keeps whitespace in ES output for re-bundling; the widget is served as is.
      // allow-extension lets shared code (Preact) live in app.js itself, so the lazy chunks import it from there and app.js loads no chunk of its own first.
      // No comments: the /* @__PURE__ */ marks JSX leaves are for bundlers, and browsers get these files as they are (about 90 B gzip).
      rolldownOptions: { output: { minify: true, comments: false }, preserveEntrySignatures: 'allow-extension' },
      lib: loader
        ? { entry: 'widget/loader/index.ts', formats: ['iife'], name: 'ParleyLoader', fileName: () => 'widget.js' }
        : hosted
          ? { entry: 'widget/hosted/index.ts', formats: ['es'], fileName: () => 'chat.js' }
          : desk
            ? { entry: 'console/index.tsx', formats: ['es'], fileName: () => 'console.js' }
            : { entry: 'widget/app/index.tsx', formats: ['es'], fileName: () => 'app.js' },
    },
    test: {
      include: ['**/*.test.ts'],
      exclude: ['node_modules/**', 'dist/**'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // expect.poll waits for what a browser or a server will do; its default second is shorter than a
      // lazy chunk's load on a busy machine (a passing poll returns as soon as its condition holds).
      expect: { poll: { timeout: 10_000 } },
      pool: 'forks',
      // PGlite's initdb once for the run, not once per database (shared/server/pglite-cluster.ts).
      globalSetup: ['test/global-setup.ts'],
      setupFiles: ['test/worker-setup.ts'],
      // Two files at a time on two cores (Vitest would run one): on a fresh clone here the suite took
      // 13 minutes so and 17 one at a time, and passed both ways, also under a load average of 8.
      // Since in-memory PGlite starts from a copied blank cluster (globalSetup), `npm test` takes
      // about 7.5 minutes on a quiet machine here.
      maxWorkers: 2,
      // Each worker process runs its files one after another without loading every module again
      // for each file: the suite's import time fell from 93-203 s to 16 s, and `npm test` on this
      // 2-core machine from 7.5-8.7 minutes to about 6.5 (three workers gained nothing: 521 s). Test
      // files share no module state they change: each starts its own stack, and the one that sets
      // TZ puts it back.
      isolate: false,
      // No retries, on CI either: a test that fails once is a bug to fix at its cause.
      retry: 0,
    },
  };
});
