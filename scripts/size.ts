/**
 * `npm run size [-- <dir>]`: prints the sizes of the built widget (default `dist/widget`), each part of
 * the first-answer count (issue 34: the loader, the app, its static imports and the lazy chunks every
 * first answer loads), the two budgets of DESIGN.md, and the agent console's own budget (`dist/console`). Exit code 0 when both budgets hold, 1 when one is over, 2 when the
 * widget has not been built (or cannot be measured). The measuring is in `scripts/widget-size.ts`.
 */
import { fileURLToPath } from 'node:url';
import { measureConsole } from './console-size.ts';
import { MissingBuildError, measureWidget, type BudgetResult, type FileSize, type WidgetSize } from './widget-size.ts';

const defaultDir = fileURLToPath(new URL('../dist/widget', import.meta.url));
const consoleDir = fileURLToPath(new URL('../dist/console', import.meta.url));

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} KB`;
}

function bytes(n: number): string {
  return n.toLocaleString('en-US');
}

function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned: ReadonlySet<number>,
): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? cell.length;
        return rightAligned.has(column) ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

function fileRow(file: FileSize, what: string): string[] {
  return [file.file, what, bytes(file.raw), bytes(file.gzip), bytes(file.brotli)];
}

function budgetLine(result: BudgetResult): string {
  const verdict = result.ok ? 'OK' : 'OVER';
  return `${verdict.padEnd(4)}  ${result.name}: ${bytes(result.measured)} B gzip (${kb(result.measured)}) of ${bytes(result.budget)} B (${kb(result.budget)})`;
}

function print(size: WidgetSize): void {
  const rows: string[][] = [
    fileRow(size.loader, 'loader (classic script)'),
    fileRow(size.app, 'app (ES module)'),
    ...size.staticChunks.map((file) => fileRow(file, 'static import of app')),
    ...size.firstAnswerChunks.map((file) => fileRow(file, 'lazy, every first answer loads it')),
    [
      'first answer total',
      'loader + app + all above',
      bytes(size.firstAnswer.raw),
      bytes(size.firstAnswer.gzip),
      bytes(size.firstAnswer.brotli),
    ],
  ];
  console.log(`Widget sizes in ${size.distDir} (bytes; gzip level 9, brotli quality 11)\n`);
  console.log(table(['file', 'loaded as', 'raw', 'gzip', 'brotli'], rows, new Set([2, 3, 4])));

  if (size.lazyChunks.length > 0) {
    console.log('\nLazy (dynamic import(), not needed for the first answer; not counted):\n');
    console.log(
      table(
        ['file', 'loaded as', 'raw', 'gzip', 'brotli'],
        size.lazyChunks.map((file) => fileRow(file, 'lazy')),
        new Set([2, 3, 4]),
      ),
    );
  }
  if (size.unreferenced.length > 0) {
    console.log('\nOther files no import reaches (not counted):\n');
    console.log(
      table(
        ['file', 'loaded as', 'raw', 'gzip', 'brotli'],
        size.unreferenced.map((file) => fileRow(file, 'unreferenced')),
        new Set([2, 3, 4]),
      ),
    );
  }
  for (const { from, specifier, dynamic } of size.external) {
    console.log(
      `\nwarning: ${from} ${dynamic ? 'dynamically imports' : 'imports'} ${specifier}, outside the widget folder; not measured`,
    );
  }
  for (const file of size.computedDynamicImports) {
    console.log(`\nnote: ${file} has an import() of a computed address; its target is not measured`);
  }
  if (!size.loaderIsClassicScript) {
    console.log(`\nwarning: ${size.loader.file} does not parse as a classic script (import/export statements?)`);
  }

  console.log('\nBudgets:\n');
  console.log(budgetLine(size.budgets.loader));
  console.log(budgetLine(size.budgets.firstAnswer));
}

const dir = process.argv[2] ?? defaultDir;
try {
  const size = measureWidget(dir);
  print(size);
  const desk = measureConsole(consoleDir);
  console.log(budgetLine(desk.budget));
  process.exitCode = size.ok && desk.budget.ok ? 0 : 1;
} catch (error) {
  if (error instanceof MissingBuildError) {
    console.error(`size: ${error.message}`);
    process.exitCode = 2;
  } else {
    // Not a budget verdict: the build is there but could not be measured (a missing chunk, …).
    console.error(`size: could not measure ${dir}:`, error);
    process.exitCode = 2;
  }
}
