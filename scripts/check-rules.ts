/**
 * The house rules of the rooms, checked on every TypeScript file (tests included): no import
 * circles, and no import that crosses a room's wall. Run by `.ci/run`; `npm run check:rules`.
 *
 * The rooms and what each may import are in RULES below; ARCHITECTURE.md draws them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOMS = ['shared', 'engine', 'bff', 'widget', 'console', 'demo', 'test', 'scripts', 'bench'] as const;
type Room = (typeof ROOMS)[number];

/** Which rooms a file of each room may import from (its own room always). */
const RULES: Record<Room, { may: readonly Room[]; why: string }> = {
  shared: { may: [], why: 'shared/ is the protocol: it depends on nothing of ours' },
  engine: { may: ['shared'], why: 'the engine is a service of its own; it knows only the protocol' },
  bff: { may: ['shared'], why: 'the BFF reaches the engine only over HTTP, and knows nothing of the demo' },
  widget: { may: ['shared'], why: 'the widget runs in browsers: only browser-safe protocol code' },
  console: { may: ['shared'], why: 'the console runs in browsers: only browser-safe protocol code' },
  demo: { may: ['shared', 'engine', 'bff'], why: 'the demo composes the engine and the BFF' },
  test: {
    may: ['shared', 'engine', 'bff', 'widget', 'scripts'],
    why: 'test helpers start what they test, never the demo',
  },
  scripts: { may: ['shared', 'engine', 'bff', 'widget', 'console', 'demo', 'test'], why: 'scripts may drive anything' },
  bench: { may: ['shared', 'engine', 'bff', 'widget', 'demo', 'test'], why: 'benches may drive anything' },
};

/** Tests may also reach the helpers of test/ (fixtures, clients, stacks); demo tests start the demo. */
const TEST_EXTRA: Partial<Record<Room, readonly Room[]>> = {
  shared: ['test'],
  engine: ['test'],
  bff: ['test'],
  widget: ['test'],
  console: ['test'],
  demo: ['test'],
};

/**
 * Files of a room that other rooms may import although the room is closed to them: the demo's
 * sample shop's action definitions are data with no side effect, and the tests' shop uses them.
 */
const OPEN_FILES: readonly string[] = ['demo/actions.ts'];

/** Browser rooms may import nothing from the server half of shared/, and no Node module. */
const BROWSER_ROOMS: readonly Room[] = ['widget', 'console'];
const SERVER_ONLY_SHARED = `shared${sep}server${sep}`;

export interface Finding {
  file: string;
  problem: string;
}

function walk(folder: string, into: string[]): void {
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'dist') continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) walk(path, into);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) into.push(path);
  }
}

const IMPORT =
  /(?:^|\n|;)\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier a file names in an import, an export … from, or a literal dynamic import. */
export function specifiersOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) found.push((match[1] ?? match[2])!);
  return found;
}

function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const target = resolve(dirname(from), specifier);
  const candidates = [
    target,
    `${target}.ts`,
    `${target}.tsx`,
    join(target, 'index.ts'),
    join(target, 'index.tsx'),
    target.replace(/\.js$/, '.ts'),
  ];
  return candidates.find((candidate) => files.has(candidate));
}

const roomOf = (root: string, file: string): Room | undefined => {
  const first = relative(root, file).split(sep)[0];
  return ROOMS.find((room) => room === first);
};
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** The import circles among `graph`'s files, each as a list of files (Tarjan's strongly connected components). */
export function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== file);
    if (circle.length > 1 || graph.get(file)?.includes(file)) circles.push(circle);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/** Folders inside a room closed to the rest of it: `bff/store/` holds the core tables and knows no feature. */
const INNER_ROOMS: readonly { folder: string; may: readonly string[]; why: string }[] = [
  { folder: 'bff/store/', may: ['bff/store/', 'shared/'], why: 'the core tables know no feature of the BFF' },
];

/** The rule a file breaks by importing `target` inside its room (an inner room's wall), if any. */
function innerWallBroken(root: string, file: string, target: string): string | undefined {
  const from = relative(root, file).split(sep).join('/');
  const to = relative(root, target).split(sep).join('/');
  if (isTest(file)) return undefined;
  const inner = INNER_ROOMS.find((room) => from.startsWith(room.folder));
  if (!inner || inner.may.some((folder) => to.startsWith(folder))) return undefined;
  return `imports ${to}: ${inner.why}`;
}

/** The rule a file breaks by importing `target` (a file of the tree), if any. */
function wallBroken(root: string, file: string, target: string): string | undefined {
  const from = roomOf(root, file);
  const to = roomOf(root, target);
  if (!from || !to || from === to) {
    if (from && BROWSER_ROOMS.includes(from) && relative(root, target).startsWith(SERVER_ONLY_SHARED))
      return `${from}/ imports server code ${relative(root, target)}`;
    return undefined;
  }
  const allowed = [...RULES[from].may, ...(isTest(file) ? (TEST_EXTRA[from] ?? []) : [])];
  if (!allowed.includes(to) && !OPEN_FILES.includes(relative(root, target).split(sep).join('/')))
    return `imports ${relative(root, target)}: ${RULES[from].why}`;
  if (BROWSER_ROOMS.includes(from) && relative(root, target).startsWith(SERVER_ONLY_SHARED))
    return `${from}/ imports server code ${relative(root, target)}`;
  return undefined;
}

/** Every broken rule of the tree under `root`. */
export function checkRules(root: string): Finding[] {
  const files: string[] = [];
  for (const room of ROOMS) if (existsSync(join(root, room))) walk(join(root, room), files);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  const findings: Finding[] = [];
  for (const file of files) {
    const targets: string[] = [];
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      const room = roomOf(root, file);
      if (!specifier.startsWith('.')) {
        if (room && BROWSER_ROOMS.includes(room) && !isTest(file) && specifier.startsWith('node:')) {
          findings.push({ file: relative(root, file), problem: `${room}/ imports the Node module ${specifier}` });
        }
        continue;
      }
      const target = resolveRelative(file, specifier, known);
      if (!target) continue;
      targets.push(target);
      const broken = wallBroken(root, file, target) ?? innerWallBroken(root, file, target);
      if (broken) findings.push({ file: relative(root, file), problem: broken });
    }
    graph.set(file, targets);
  }
  for (const circle of circlesOf(graph)) {
    findings.push({
      file: relative(root, circle[0]!),
      problem: `import circle: ${circle.map((file) => relative(root, file)).join(' → ')}`,
    });
  }
  return findings.sort((a, b) => a.file.localeCompare(b.file));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const findings = checkRules(ROOT);
  for (const finding of findings) console.log(`${finding.file}: ${finding.problem}`);
  console.log(
    findings.length === 0 ? 'rules: 0 import circles, 0 room-rule breaks' : `rules: ${findings.length} broken`,
  );
  process.exit(findings.length === 0 ? 0 : 1);
}
