/**
 * The size rules of the BFF, checked on every product file of `bff/` (tests aside): a file holds at
 * most 400 lines and a function at most 80, so that each reads in one sitting. Long data tables (an
 * object or array literal that is not a function) are not functions and do not count as one.
 * Run by `npm run check:rules` beside the import rules.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

export interface SizeFinding {
  file: string;
  problem: string;
}

function productFiles(folder: string, into: string[]): void {
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) productFiles(path, into);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) into.push(path);
  }
}

const isFunction = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `callback of ${parent.expression.getText(source).slice(0, 40)}`;
  return '(anonymous)';
}

/** The functions of `text` longer than `limit` lines, with their names and lengths. */
export function longFunctions(text: string, limit = MAX_FUNCTION_LINES): { name: string; lines: number }[] {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunction(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit) found.push({ name: nameOf(node, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every size rule broken under `folder` of `root`. */
export function checkSizes(root: string, folders: readonly string[] = ['bff']): SizeFinding[] {
  const files: string[] = [];
  for (const folder of folders) productFiles(join(root, folder), files);
  const findings: SizeFinding[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const name = relative(root, file).split(sep).join('/');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) findings.push({ file: name, problem: `${lines} lines (at most ${MAX_FILE_LINES})` });
    for (const fn of longFunctions(text))
      findings.push({ file: name, problem: `function ${fn.name}: ${fn.lines} lines (at most ${MAX_FUNCTION_LINES})` });
  }
  return findings.sort((a, b) => a.file.localeCompare(b.file));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const folders = process.argv.slice(2);
  const findings = checkSizes(root, folders.length > 0 ? folders : ['bff']);
  for (const finding of findings) console.log(`${finding.file}: ${finding.problem}`);
  console.log(
    findings.length === 0 ? 'sizes: every file and function within bounds' : `sizes: ${findings.length} too long`,
  );
  process.exit(findings.length === 0 ? 0 : 1);
}
