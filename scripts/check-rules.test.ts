import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRules, specifiersOf } from './check-rules.ts';

let tree: string | undefined;
afterEach(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
  tree = undefined;
});

/** A small tree of files under a fresh temporary folder. */
function treeOf(files: Record<string, string>): string {
  tree = mkdtempSync(join(tmpdir(), 'parley-rules-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  return tree;
}

describe('the house rules check', () => {
  it('finds every kind of import a file names: static, re-exported, type-only and dynamic', () => {
    const source =
      "import { a } from './a.ts';\nimport type { B } from '../b.ts';\nexport * from './c.ts';\nconst d = await import('./d.ts');\nimport './e.ts';";
    expect(specifiersOf(source).sort()).toEqual(['../b.ts', './a.ts', './c.ts', './d.ts', './e.ts']);
  });

  it('passes a tree whose rooms import only what they may', () => {
    const root = treeOf({
      'shared/index.ts': 'export const x = 1;',
      'engine/app.ts': "import { x } from '../shared/index.ts';",
      'bff/host/app.ts': "import { x } from '../shared/index.ts';",
      'widget/app.ts': "import { x } from '../shared/index.ts';",
      'demo/run.ts': "import '../engine/app.ts';\nimport '../bff/host/app.ts';",
      'bff/app.test.ts': "import '../test/stack.ts';",
      'test/stack.ts': "import '../engine/app.ts';\nimport '../bff/host/app.ts';",
    });
    expect(checkRules(root)).toEqual([]);
  });

  it('refuses a BFF file that imports the engine, and a BFF test that imports the demo', () => {
    const root = treeOf({
      'engine/app.ts': 'export const engine = 1;',
      'demo/run.ts': 'export const demo = 1;',
      'bff/engine-link/relay.ts': "import { engine } from '../../engine/app.ts';",
      'bff/relay.test.ts': "import { demo } from '../demo/run.ts';",
    });
    expect(checkRules(root).map((finding) => finding.file)).toEqual(['bff/engine-link/relay.ts', 'bff/relay.test.ts']);
  });

  it('refuses server code and Node modules in the browser rooms, and anything of ours in shared/', () => {
    const root = treeOf({
      'shared/server/sql.ts': 'export const sql = 1;',
      'shared/index.ts': "import '../bff/host/app.ts';",
      'bff/host/app.ts': 'export const app = 1;',
      'widget/app.ts': "import { sql } from '../shared/server/sql.ts';\nimport { readFileSync } from 'node:fs';",
    });
    const problems = checkRules(root).map((finding) => `${finding.file}: ${finding.problem.split(':')[0]}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        'shared/index.ts: imports bff/host/app.ts',
        'widget/app.ts: widget/ imports server code shared/server/sql.ts',
        'widget/app.ts: widget/ imports the Node module node',
      ]),
    );
    expect(problems).toHaveLength(3);
  });

  it("lets test helpers import the demo's sample actions (data) and nothing else of the demo", () => {
    const root = treeOf({
      'demo/actions.ts': 'export const actions = [];',
      'demo/run-demo.ts': 'export const runDemo = 1;',
      'test/shop.ts': "import { actions } from '../demo/actions.ts';",
      'test/stack.ts': "import { runDemo } from '../demo/run-demo.ts';",
    });
    expect(checkRules(root).map((finding) => finding.file)).toEqual(['test/stack.ts']);
  });

  it('finds an import circle, through type-only imports too', () => {
    const root = treeOf({
      'bff/a.ts': "import type { B } from './b.ts';",
      'bff/b.ts': "import { c } from './c.ts';",
      'bff/c.ts': "export { a } from './a.ts';",
    });
    const [finding] = checkRules(root);
    expect(finding?.problem).toMatch(/^import circle: /);
    expect(finding?.problem).toContain('bff/a.ts');
  });

  it('keeps bff/store/ to the core tables: it imports no feature of the BFF (its tests may)', () => {
    const root = treeOf({
      'shared/index.ts': 'export const x = 1;',
      'bff/store/messages.ts': "import { x } from '../../shared/index.ts';\nimport { y } from './outbox.ts';",
      'bff/store/outbox.ts': "import { z } from '../widget/sessions.ts';\nexport const y = 1;",
      'bff/store/outbox.test.ts': "import { z } from '../widget/sessions.ts';",
      'bff/widget/sessions.ts': "import { y } from '../store/outbox.ts';\nexport const z = 1;",
    });
    const findings = checkRules(root).filter((finding) => !finding.problem.startsWith('import circle'));
    expect(findings).toEqual([
      {
        file: 'bff/store/outbox.ts',
        problem: 'imports bff/widget/sessions.ts: the core tables know no feature of the BFF',
      },
    ]);
  });
});
