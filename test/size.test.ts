/**
 * The size budgets of DESIGN.md on the real build (`npm test` builds first), and the static/lazy
 * classification of `scripts/widget-size.ts` on a small fake build.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIRST_ANSWER_BUDGET_GZIP,
  LOADER_BUDGET_GZIP,
  MissingBuildError,
  measureWidget,
  type WidgetSize,
} from '../scripts/widget-size.ts';
import { CONSOLE_BUDGET_GZIP, measureConsole } from '../scripts/console-size.ts';

const distDir = fileURLToPath(new URL('../dist/widget', import.meta.url));

describe('agent console size budget (built dist/console)', () => {
  it('keeps the console within 40 KB gzip', () => {
    const measured = measureConsole(fileURLToPath(new URL('../dist/console', import.meta.url)));
    expect(measured.gzip, `console.js is ${measured.gzip} B gzip`).toBeLessThanOrEqual(CONSOLE_BUDGET_GZIP);
    expect(measured.budget.ok).toBe(true);
  });
});

function describeSizes(size: WidgetSize): string {
  const files = [size.loader, size.app, ...size.staticChunks, ...size.firstAnswerChunks]
    .map((file) => `${file.file} ${file.gzip} B gzip`)
    .join(', ');
  return `${files}; first answer total ${size.firstAnswer.gzip} B gzip`;
}

describe('widget size budgets (built dist/widget)', () => {
  let size: WidgetSize;
  beforeAll(() => {
    try {
      size = measureWidget(distDir);
    } catch (error) {
      if (error instanceof MissingBuildError) throw new Error(`${error.message} (npm test builds before the tests)`);
      throw error;
    }
  });

  it('keeps the loader within 2 KB gzip', () => {
    expect(
      size.loader.gzip,
      `loader widget.js is ${size.loader.gzip} B gzip (${size.loader.raw} B raw), budget ${LOADER_BUDGET_GZIP} B`,
    ).toBeLessThanOrEqual(LOADER_BUDGET_GZIP);
    expect(size.budgets.loader.ok).toBe(true);
  });

  it('keeps everything before the first answer within 30 KB gzip, the answers and home chunks counted', () => {
    expect(
      size.firstAnswer.gzip,
      `first answer needs ${size.firstAnswer.gzip} B gzip, budget ${FIRST_ANSWER_BUDGET_GZIP} B: ${describeSizes(size)}`,
    ).toBeLessThanOrEqual(FIRST_ANSWER_BUDGET_GZIP);
    expect(size.budgets.firstAnswer.ok).toBe(true);
    expect(size.firstAnswerChunks.map((file) => file.file.replace(/-[\w-]{8}\.js$/, ''))).toEqual(
      expect.arrayContaining(['answers', 'home']),
    );
    // The total is the sum of the files counted, each compressed on its own.
    const counted = [size.loader, size.app, ...size.staticChunks, ...size.firstAnswerChunks].reduce(
      (total, file) => total + file.gzip,
      0,
    );
    expect(size.firstAnswer.gzip).toBe(counted);
  });

  it('counts app.js as needed and measures every static import of it', () => {
    expect(size.app.file).toBe('app.js');
    expect(size.app.kind).toBe('app');
    expect(size.app.gzip).toBeGreaterThan(0);
    // A static import from outside the folder could not be counted: the built app has none.
    expect(
      size.external.filter((entry) => !entry.dynamic),
      'static imports the size check cannot measure',
    ).toEqual([]);
  });

  it('keeps the loader a classic script (no import/export statements)', () => {
    const loader = readFileSync(path.join(distDir, 'widget.js'), 'utf8');
    expect(loader, 'widget.js has a top-level import statement').not.toMatch(/^\s*import\s/m);
    expect(loader, 'widget.js has an export statement').not.toContain('export ');
    expect(size.loaderIsClassicScript, 'widget.js does not parse as a classic script').toBe(true);
  });
});

describe('static and lazy chunks (fake build)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'parley-size-'));
    const files: Record<string, string> = {
      // A classic script that loads the app with a computed address, as the real loader does.
      'widget.js': '(function(){var s=document.currentScript;import(new URL("app.js",s.src).href)})();',
      'app.js': [
        'import{h as e}from"./vendor.js";',
        'import"./side-effect.js";',
        'export*from"./reexport.js";',
        'const load=l=>l==="de"?import("./locale-de.js"):import(`./locale-fr.js`);',
        // Both imported statically and dynamically: needed before the first message.
        'import("./vendor.js");',
        // Not imports: inside a string and a comment.
        'const s=\'import("./in-string.js")\';/* import "./in-comment.js" */',
        'export{load,e,s};',
      ].join('\n'),
      'vendor.js': 'import{x}from"./chunks/deep.js";export const h=()=>x;',
      'chunks/deep.js': 'import"../shared.js";export const x=1;',
      'shared.js': 'export const shared=1;',
      'side-effect.js': 'globalThis.sideEffect=1;',
      'reexport.js': 'export const r=1;',
      // A lazy chunk's static imports are lazy too, unless the app needs them anyway.
      'locale-de.js': 'import{c}from"./locale-common.js";import{shared}from"./shared.js";export default{c,shared};',
      'locale-fr.js': 'import{c}from"./locale-common.js";export default{c};',
      'locale-common.js': 'export const c=1;',
      'in-string.js': 'export const never=1;',
      'in-comment.js': 'export const never=1;',
      'style.css': '.parley{color:red}',
    };
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
    }
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows static imports recursively and lists dynamically imported chunks as lazy', () => {
    const size = measureWidget(dir, []);
    expect(size.loader.file).toBe('widget.js');
    expect(size.app.file).toBe('app.js');
    expect(size.staticChunks.map((file) => file.file).sort()).toEqual(
      ['chunks/deep.js', 'reexport.js', 'shared.js', 'side-effect.js', 'vendor.js'].sort(),
    );
    expect(size.staticChunks.every((file) => file.kind === 'static')).toBe(true);
    expect(size.lazyChunks.map((file) => file.file).sort()).toEqual([
      'locale-common.js',
      'locale-de.js',
      'locale-fr.js',
    ]);
    expect(size.lazyChunks.every((file) => file.kind === 'lazy')).toBe(true);
    expect(size.unreferenced.map((file) => file.file).sort()).toEqual(['in-comment.js', 'in-string.js', 'style.css']);
    expect(size.external).toEqual([]);
    expect(size.loaderIsClassicScript).toBe(true);
  });

  it('counts the loader, the app and its static chunks, and nothing lazy, in the first-answer total', () => {
    const size = measureWidget(dir, []);
    const counted = [size.loader, size.app, ...size.staticChunks];
    expect(counted).toHaveLength(7);
    expect(size.firstAnswer.raw).toBe(counted.reduce((total, file) => total + file.raw, 0));
    expect(size.firstAnswer.gzip).toBe(counted.reduce((total, file) => total + file.gzip, 0));
    expect(size.firstAnswer.brotli).toBe(counted.reduce((total, file) => total + file.brotli, 0));
    expect(size.ok).toBe(true);
  });

  it('counts a lazy chunk every first answer needs, with its own static imports, and no other', () => {
    const size = measureWidget(dir, ['locale-de']);
    // shared.js is the app's already; locale-common.js comes with locale-de.js.
    expect(size.firstAnswerChunks.map((file) => file.file)).toEqual(['locale-de.js', 'locale-common.js']);
    expect(size.firstAnswerChunks.every((file) => file.kind === 'first-answer')).toBe(true);
    expect(size.lazyChunks.map((file) => file.file)).toEqual(['locale-fr.js']);
    const counted = [size.loader, size.app, ...size.staticChunks, ...size.firstAnswerChunks];
    expect(size.firstAnswer.gzip).toBe(counted.reduce((total, file) => total + file.gzip, 0));
    expect(() => measureWidget(dir, ['answers'])).toThrow(/no lazy chunk named answers/);
  });

  it('flags a loader that is an ES module and a folder that was not built', () => {
    const moduleDir = mkdtempSync(path.join(tmpdir(), 'parley-size-module-'));
    try {
      writeFileSync(path.join(moduleDir, 'widget.js'), 'import"./app.js";');
      writeFileSync(path.join(moduleDir, 'app.js'), 'export const a=1;');
      expect(measureWidget(moduleDir, []).loaderIsClassicScript).toBe(false);
    } finally {
      rmSync(moduleDir, { recursive: true, force: true });
    }
    expect(() => measureWidget(path.join(dir, 'not-built'))).toThrow(MissingBuildError);
    expect(() => measureWidget(path.join(dir, 'not-built'))).toThrow(/run npm run build first/);
  });
});
