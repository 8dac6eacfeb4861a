import { parseArgs } from 'node:util';
import { withCliStore } from '../host/cli-store.ts';
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
await withCliStore(async (sql) => {
  const { token } = await createPlatformToken(sql, name, new Date());
  process.stdout.write(
    `Platform app token for ${name} (shown once, keep it safe; send it as the api_access_token header):\n  ${token}\n`,
  );
});
