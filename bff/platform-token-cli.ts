import { parseArgs } from 'node:util';
import { readBffStoreConfig } from './config.ts';
import { openBffStore } from './infrastructure.ts';
import { createPlatformToken } from './store/credentials.ts';

/**
 * `npm run helpdesk:token -- --name "Operator"`: makes a platform app token for the helpdesk's
 * Platform API in the BFF's store (DATA_DIR or DATABASE_URL) and prints it once; only its hash is
 * kept. With the embedded store run it while the BFF is stopped (PGlite is one process's).
 */
let values: { name?: string | undefined };
try {
  ({ values } = parseArgs({ options: { name: { type: 'string' } } }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\nGive --name "Who holds it".\n`);
  process.exit(2);
}
const name = values.name?.trim() || 'operator';
let store: ReturnType<typeof readBffStoreConfig>;
try {
  store = readBffStoreConfig(process.env);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
const sql = await openBffStore(store);
try {
  const { token } = await createPlatformToken(sql, name, new Date());
  process.stdout.write(`Platform app token for ${name} (shown once, keep it safe; send it as the api_access_token header):\n  ${token}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await sql.close();
}
