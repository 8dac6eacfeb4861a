import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Origin } from '../shared/server/index.ts';
import { withCliStore } from './cli-store.ts';
import { addSiteKey, createInbox } from './store/inboxes.ts';

/**
 * `npm run bff:inbox -- --name "My shop" [--live-origin https://shop.example]…`: makes an inbox in
 * the BFF's store (DATA_DIR or DATABASE_URL, as `npm run bff` reads them) with a sandbox site key,
 * and a live one that works from the given origins when any are given; prints the keys. With the
 * embedded store run it while the BFF is stopped (PGlite is one process's).
 */
const usage = 'Give --name "Shop name", and --live-origin https://shop.example (repeatable) for a live site key too.\n';
let values: { name?: string | undefined; 'live-origin'?: string[] | undefined };
try {
  ({ values } = parseArgs({ options: { name: { type: 'string' }, 'live-origin': { type: 'string', multiple: true } } }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const name = values.name?.trim();
if (!name) {
  process.stderr.write(usage);
  process.exit(2);
}
const origins = z.array(Origin).safeParse(values['live-origin'] ?? []);
if (!origins.success) {
  process.stderr.write(origins.error.issues.map((issue) => `--live-origin: ${issue.message}\n`).join(''));
  process.exit(2);
}
const liveOrigins = [...new Set(origins.data)];

await withCliStore(async (sql) => {
  // All or nothing: an inbox without its keys is of no use.
  const made = await sql.transaction(async (tx) => {
    const inbox = await createInbox(tx, { name });
    const sandbox = await addSiteKey(tx, inbox.id, 'sandbox');
    const live = liveOrigins.length > 0 ? await addSiteKey(tx, inbox.id, 'live', liveOrigins) : undefined;
    return { inbox, sandbox, live };
  });
  const lines = [`Inbox ${made.inbox.id} (${made.inbox.name})`, `  sandbox site key: ${made.sandbox.key}`];
  if (made.live) lines.push(`  live site key (works from ${made.live.allowedOrigins.join(', ')}): ${made.live.key}`);
  process.stdout.write(`${lines.join('\n')}\n`);
});
