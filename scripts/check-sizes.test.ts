import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSizes, longFunctions } from './check-sizes.ts';

let tree: string | undefined;
afterEach(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
  tree = undefined;
});

function treeOf(files: Record<string, string>): string {
  tree = mkdtempSync(join(tmpdir(), 'parley-sizes-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  return tree;
}

/** A function of `body` lines, declared as `kind` says. */
const functionOf = (name: string, body: number, kind: 'declaration' | 'arrow' | 'method' = 'declaration') => {
  const lines = Array.from({ length: body }, (_, index) => `  const v${index} = ${index};`).join('\n');
  if (kind === 'arrow') return `export const ${name} = () => {\n${lines}\n};\n`;
  if (kind === 'method') return `export const holder = {\n  ${name}() {\n${lines}\n  },\n};\n`;
  return `export function ${name}() {\n${lines}\n}\n`;
};

describe('the size rules check', () => {
  it('names a function over 80 lines, however it is declared, and passes one of exactly 80', () => {
    expect(longFunctions(functionOf('fits', 78))).toEqual([]);
    expect(longFunctions(functionOf('long', 79))).toEqual([{ name: 'long', lines: 81 }]);
    expect(longFunctions(functionOf('arrow', 90, 'arrow'))).toEqual([{ name: 'arrow', lines: 92 }]);
    expect(longFunctions(functionOf('method', 90, 'method'))).toEqual([{ name: 'method', lines: 92 }]);
  });

  it('does not count a long data table as a function', () => {
    const table = `export const TABLE = {\n${Array.from({ length: 200 }, (_, i) => `  k${i}: ${i},`).join('\n')}\n};\n`;
    expect(longFunctions(table)).toEqual([]);
  });

  it('finds long product files and functions, and leaves tests alone', () => {
    const root = treeOf({
      'bff/short.ts': functionOf('short', 10),
      'bff/long-file.ts': Array.from({ length: 401 }, (_, i) => `export const c${i} = ${i};`).join('\n') + '\n',
      'bff/room/long-function.ts': functionOf('createEverything', 100),
      'bff/room/long.test.ts': functionOf('aLongTest', 500),
    });
    expect(checkSizes(root, ['bff'])).toEqual([
      { file: 'bff/long-file.ts', problem: '401 lines (at most 400)' },
      { file: 'bff/room/long-function.ts', problem: 'function createEverything: 102 lines (at most 80)' },
    ]);
  });
});
