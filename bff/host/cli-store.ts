import { settingsOrExit, type Sql } from '../../shared/server/index.ts';
import { readBffStoreConfig } from './config.ts';
import { openBffStore } from './infrastructure.ts';

/**
 * For the BFF's command-line tools: runs `work` on the BFF's store (DATA_DIR or DATABASE_URL, as
 * `npm run bff` reads them) and closes it. A bad setting stops the tool with exit code 1 and the
 * message that names it; so does an error of `work`.
 */
export async function withCliStore(work: (sql: Sql) => Promise<void>): Promise<void> {
  const store = settingsOrExit(() => readBffStoreConfig(process.env));
  const sql = await openBffStore(store);
  try {
    await work(sql);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await sql.close();
  }
}
