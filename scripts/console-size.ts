import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compressedSizes, MissingBuildError, type BudgetResult, type Sizes } from './widget-size.ts';

export const CONSOLE_FILE = 'console.js';
/**
 * The agent console's budget: everything a person downloads to open it (one file: Preact, the
 * Socket.IO client and the app). People open it once a shift, on a desk's connection, so it may
 * be larger than the widget; 40 KB gzip keeps it faster to open than the consoles it stands beside.
 */
export const CONSOLE_BUDGET_GZIP = 40 * 1024;

/** Measures the built console (`dist/console`). */
export function measureConsole(distDir: string): Sizes & { budget: BudgetResult } {
  const file = path.join(distDir, CONSOLE_FILE);
  if (!existsSync(file)) throw new MissingBuildError(`${file} is missing: build the console first (npm run build)`);
  const sizes = compressedSizes(readFileSync(file));
  return {
    ...sizes,
    budget: {
      name: 'agent console ≤ 40 KB gzip',
      measured: sizes.gzip,
      budget: CONSOLE_BUDGET_GZIP,
      ok: sizes.gzip <= CONSOLE_BUDGET_GZIP,
    },
  };
}
