/**
 * Measures the built widget (`dist/widget/`) against the size budgets of DESIGN.md ("Budgets"):
 * - the loader `widget.js` ≤ 2 KB gzip;
 * - everything a visitor downloads before the first answer shows (issue 34's "first-answer count") —
 *   the loader, `app.js`, every chunk `app.js` imports statically, recursively (Preact is bundled
 *   into them), and the lazy chunks every first answer loads anyway (`FIRST_ANSWER_CHUNKS`, with
 *   their static imports) — ≤ 30 KB gzip.
 *
 * Other chunks reached only through a dynamic `import()` (locale catalogues, features that load
 * when used) are loaded later, so they are listed as lazy and not counted. The import graph is read with a real parser
 * (Vite's `parseAst`), so an `import(` inside a string or a comment is not taken for an import.
 *
 * `scripts/size.ts` prints the result; `test/size.test.ts` asserts on it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { parseAst } from 'vite';

export const LOADER_FILE = 'widget.js';
export const APP_FILE = 'app.js';
export const LOADER_BUDGET_GZIP = 2 * 1024;
export const FIRST_ANSWER_BUDGET_GZIP = 30 * 1024;

/**
 * Lazy chunks every first answer needs, by the name of the module they are built from (Vite writes
 * `<name>-<hash>.js`): the empty conversation a visitor writes the first question in is the home
 * chunk's, and the answer is drawn by the answers chunk (formatting, cards, quick replies). A chunk
 * that every first answer needs counts, lazy or not (issue 34).
 */
export const FIRST_ANSWER_CHUNKS: readonly string[] = ['answers', 'home'];

/** How a file in the widget folder is loaded. */
export type FileKind = 'loader' | 'app' | 'static' | 'first-answer' | 'lazy' | 'unreferenced';

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface FileSize extends Sizes {
  /** Path relative to the widget folder, with `/` separators. */
  file: string;
  kind: FileKind;
}

export interface BudgetResult {
  name: string;
  /** Measured gzip bytes. */
  measured: number;
  /** Budget in gzip bytes. */
  budget: number;
  ok: boolean;
}

export interface ImportGraph {
  /** Files needed before the first message, the entry first, in discovery order. */
  static: string[];
  /** Files reached only through a dynamic `import()` somewhere in the graph. */
  lazy: string[];
  /** Specifiers that are not relative (`./`, `../`) and so cannot be measured here, with their importer. */
  external: { from: string; specifier: string; dynamic: boolean }[];
  /** Dynamic imports whose target is computed at run time (not a plain string). */
  computedDynamicImports: string[];
}

export interface WidgetSize {
  distDir: string;
  loader: FileSize;
  app: FileSize;
  /** Chunks `app.js` imports statically, recursively (not `app.js` itself). */
  staticChunks: FileSize[];
  /** Lazy chunks every first answer loads (`FIRST_ANSWER_CHUNKS` and their static imports). */
  firstAnswerChunks: FileSize[];
  /** The other lazy chunks. */
  lazyChunks: FileSize[];
  /** Other files in the folder that no import reaches (`.js`, `.css`, …). */
  unreferenced: FileSize[];
  external: ImportGraph['external'];
  computedDynamicImports: string[];
  /** Loader + app + its static chunks + the first answer's lazy chunks, each compressed on its own (as each is downloaded). */
  firstAnswer: Sizes;
  /** Whether `widget.js` parses as a classic script (no `import`/`export` statements). */
  loaderIsClassicScript: boolean;
  budgets: { loader: BudgetResult; firstAnswer: BudgetResult };
  ok: boolean;
}

/** The widget folder or one of its entry files is missing: the widget has not been built. */
export class MissingBuildError extends Error {
  constructor(readonly missing: string) {
    super(`${missing} is missing: run npm run build first`);
    this.name = 'MissingBuildError';
  }
}

export function compressedSizes(content: Buffer): Sizes {
  return {
    raw: content.byteLength,
    gzip: gzipSync(content, { level: 9 }).byteLength,
    brotli: brotliCompressSync(content, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.byteLength,
      },
    }).byteLength,
  };
}

interface ModuleImports {
  static: string[];
  dynamic: string[];
  /** Dynamic imports of a computed expression. */
  computed: number;
}

type AstNode = { type: string } & Record<string, unknown>;

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The string a specifier node holds, when it is a plain literal (`"./x.js"` or `` `./x.js` ``). */
function literalString(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === 'Literal' && typeof node['value'] === 'string') return node['value'];
  if (node.type === 'TemplateLiteral') {
    const expressions = node['expressions'];
    const quasis = node['quasis'];
    if (Array.isArray(expressions) && expressions.length === 0 && Array.isArray(quasis) && quasis.length === 1) {
      const quasi: unknown = quasis[0];
      if (isNode(quasi)) {
        const value = quasi['value'];
        if (typeof value === 'object' && value !== null) {
          const cooked = (value as { cooked?: unknown }).cooked;
          if (typeof cooked === 'string') return cooked;
        }
      }
    }
  }
  return undefined;
}

/** The static and dynamic import specifiers of one ES module. */
export function findImports(code: string, filename = 'module.js'): ModuleImports {
  const program: unknown = parseAst(code, { sourceType: 'module', lang: 'js' }, filename);
  const result: ModuleImports = { static: [], dynamic: [], computed: 0 };
  const stack: unknown[] = [program];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    if (!isNode(value)) continue;
    switch (value.type) {
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
      case 'ExportNamedDeclaration': {
        const source = literalString(value['source']);
        if (source !== undefined) result.static.push(source);
        break;
      }
      case 'ImportExpression': {
        const source = literalString(value['source']);
        if (source === undefined) result.computed += 1;
        else result.dynamic.push(source);
        break;
      }
      default:
        break;
    }
    for (const [key, child] of Object.entries(value)) {
      if (key !== 'type' && typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return result;
}

function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

function toPosix(file: string): string {
  return file.split(path.sep).join('/');
}

/**
 * Follows the imports of the ES module `entry` (relative to `distDir`): files reached through
 * static imports only are static; files reached through a dynamic `import()` at some point, and not
 * statically from the entry, are lazy.
 */
export function importGraph(distDir: string, entry: string): ImportGraph {
  const root = path.resolve(distDir);
  const imports = new Map<string, ModuleImports>();
  const external: ImportGraph['external'] = [];
  const computedDynamicImports: string[] = [];

  const read = (file: string): ModuleImports => {
    const known = imports.get(file);
    if (known) return known;
    const absolute = path.join(root, file);
    if (!existsSync(absolute)) throw new Error(`${file} is imported but missing from ${distDir}`);
    const found = findImports(readFileSync(absolute, 'utf8'), file);
    imports.set(file, found);
    if (found.computed > 0) computedDynamicImports.push(file);
    return found;
  };

  const resolve = (from: string, specifier: string, dynamic: boolean): string | undefined => {
    if (!isRelative(specifier)) {
      external.push({ from, specifier, dynamic });
      return undefined;
    }
    const bare = specifier.replace(/[?#].*$/, '');
    const target = toPosix(path.relative(root, path.resolve(root, path.dirname(from), bare)));
    if (target.startsWith('../')) throw new Error(`${from} imports ${specifier}, outside ${distDir}`);
    return target;
  };

  // Breadth-first over static edges from the entry: everything needed before the app runs.
  const staticFiles: string[] = [entry];
  const staticSet = new Set(staticFiles);
  for (let i = 0; i < staticFiles.length; i++) {
    const file = staticFiles[i];
    if (file === undefined) break;
    for (const specifier of read(file).static) {
      const target = resolve(file, specifier, false);
      if (target !== undefined && !staticSet.has(target)) {
        staticSet.add(target);
        staticFiles.push(target);
      }
    }
  }

  // Then every edge (static or dynamic) from the dynamic imports on: loaded later, on demand.
  const lazyFiles: string[] = [];
  const lazySet = new Set<string>();
  const queue: string[] = [];
  const enqueueLazy = (target: string | undefined): void => {
    if (target === undefined || staticSet.has(target) || lazySet.has(target)) return;
    lazySet.add(target);
    lazyFiles.push(target);
    queue.push(target);
  };
  for (const file of staticFiles) {
    for (const specifier of read(file).dynamic) enqueueLazy(resolve(file, specifier, true));
  }
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === undefined) break;
    const found = read(file);
    for (const specifier of found.static) enqueueLazy(resolve(file, specifier, false));
    for (const specifier of found.dynamic) enqueueLazy(resolve(file, specifier, true));
  }

  return { static: staticFiles, lazy: lazyFiles, external, computedDynamicImports };
}

function listFiles(root: string, dir = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) files.push(...listFiles(root, relative));
    else if (entry.isFile()) files.push(relative);
  }
  return files.sort();
}

function isClassicScript(code: string): boolean {
  try {
    parseAst(code, { sourceType: 'script', lang: 'js' }, LOADER_FILE);
    return true;
  } catch {
    return false;
  }
}

function sum(files: readonly Sizes[]): Sizes {
  return files.reduce<Sizes>(
    (total, file) => ({ raw: total.raw + file.raw, gzip: total.gzip + file.gzip, brotli: total.brotli + file.brotli }),
    { raw: 0, gzip: 0, brotli: 0 },
  );
}

function budget(name: string, measured: number, limit: number): BudgetResult {
  return { name, measured, budget: limit, ok: measured <= limit };
}

/**
 * The lazy files the named chunks are built into, with what they import statically, recursively
 * (the app's static files aside: they are counted already). A name no chunk has is an error, so
 * that a renamed module cannot leave the count unnoticed.
 */
export function namedChunksWithImports(distDir: string, graph: ImportGraph, names: readonly string[]): string[] {
  const root = path.resolve(distDir);
  const found: string[] = [];
  const visit = (file: string): void => {
    if (graph.static.includes(file) || found.includes(file)) return;
    found.push(file);
    for (const specifier of findImports(readFileSync(path.join(root, file), 'utf8'), file).static) {
      if (isRelative(specifier)) visit(toPosix(path.relative(root, path.resolve(root, path.dirname(file), specifier))));
    }
  };
  for (const name of names) {
    const file = graph.lazy.find((lazy) => new RegExp(`^(?:.*/)?${name}(?:-[\\w-]{8})?\\.js$`).test(lazy));
    if (file === undefined) throw new Error(`no lazy chunk named ${name} in ${distDir} (FIRST_ANSWER_CHUNKS)`);
    visit(file);
  }
  return found;
}

/** Measures the built widget in `distDir` (usually `dist/widget`) against the budgets. */
export function measureWidget(distDir: string, firstAnswerNames: readonly string[] = FIRST_ANSWER_CHUNKS): WidgetSize {
  const root = path.resolve(distDir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new MissingBuildError(distDir);
  for (const file of [LOADER_FILE, APP_FILE]) {
    if (!existsSync(path.join(root, file))) throw new MissingBuildError(`${distDir}/${file}`);
  }

  const measure = (file: string, kind: FileKind): FileSize => ({
    file,
    kind,
    ...compressedSizes(readFileSync(path.join(root, file))),
  });

  const loaderCode = readFileSync(path.join(root, LOADER_FILE), 'utf8');
  const graph = importGraph(root, APP_FILE);
  const loader = measure(LOADER_FILE, 'loader');
  const app = measure(APP_FILE, 'app');
  const staticChunks = graph.static.filter((file) => file !== APP_FILE).map((file) => measure(file, 'static'));
  const needed = namedChunksWithImports(root, graph, firstAnswerNames);
  const firstAnswerChunks = needed.map((file) => measure(file, 'first-answer'));
  const lazyChunks = graph.lazy.filter((file) => !needed.includes(file)).map((file) => measure(file, 'lazy'));
  const known = new Set([LOADER_FILE, ...graph.static, ...graph.lazy]);
  const unreferenced = listFiles(root)
    .filter((file) => !known.has(file))
    .map((file) => measure(file, 'unreferenced'));

  const firstAnswer = sum([loader, app, ...staticChunks, ...firstAnswerChunks]);
  const budgets = {
    loader: budget('loader ≤ 2 KB gzip', loader.gzip, LOADER_BUDGET_GZIP),
    firstAnswer: budget(
      'first answer: loader + app + its static imports + the chunks every first answer loads ≤ 30 KB gzip',
      firstAnswer.gzip,
      FIRST_ANSWER_BUDGET_GZIP,
    ),
  };

  return {
    distDir,
    loader,
    app,
    staticChunks,
    firstAnswerChunks,
    lazyChunks,
    unreferenced,
    external: graph.external,
    computedDynamicImports: graph.computedDynamicImports,
    firstAnswer,
    loaderIsClassicScript: isClassicScript(loaderCode),
    budgets,
    ok: budgets.loader.ok && budgets.firstAnswer.ok,
  };
}
