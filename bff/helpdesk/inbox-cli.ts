import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Origin } from '../../shared/index.ts';
import { withCliStore } from '../host/cli-store.ts';
import { AiMessagesPerAddress } from '../../shared/schemas/helpdesk/index.ts';
import { AI_MESSAGES_PER_ADDRESS_RANGE } from '../../shared/schemas/helpdesk/index.ts';
import { addSiteKey, createInbox } from '../store/inboxes.ts';

/**
 * `npm run bff:inbox -- --name "My shop" [--live-origin https://shop.example]…
 * [--ai-messages-per-address-per-minute 300]`: makes an inbox in the BFF's store (DATA_DIR or
 * DATABASE_URL, as `npm run bff` reads them) with a sandbox site key, and a live one that works
 * from the given origins when any are given; prints the keys. The last option raises how many new
 * messages a minute one client address may send its AI (for customers behind one address). With
 * the embedded store run it while the BFF is stopped (PGlite is one process's).
 */
const { least, most } = AI_MESSAGES_PER_ADDRESS_RANGE;
const usage =
  'Give --name "Shop name", and --live-origin https://shop.example (repeatable) for a live site key too; ' +
  `--ai-messages-per-address-per-minute ${least}-${most} raises the limit of messages to the AI from one address (${least} by default).\n`;
let values: {
  name?: string | undefined;
  'live-origin'?: string[] | undefined;
  'ai-messages-per-address-per-minute'?: string | undefined;
};
try {
  ({ values } = parseArgs({
    options: {
      name: { type: 'string' },
      'live-origin': { type: 'string', multiple: true },
      'ai-messages-per-address-per-minute': { type: 'string' },
    },
  }));
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
const perAddressGiven = values['ai-messages-per-address-per-minute'];
const perAddressParsed = perAddressGiven === undefined ? undefined : AiMessagesPerAddress.safeParse(perAddressGiven);
if (perAddressParsed && !perAddressParsed.success) {
  process.stderr.write(
    `--ai-messages-per-address-per-minute: ${JSON.stringify(perAddressGiven)} is not a whole number from ${least} to ${most}.\n`,
  );
  process.exit(2);
}
const perAddress = perAddressParsed?.data ?? undefined;

await withCliStore(async (sql) => {
  // All or nothing: an inbox without its keys is of no use.
  const made = await sql.transaction(async (tx) => {
    const inbox = await createInbox(tx, {
      name,
      ...(perAddress !== undefined && { aiMessagesPerAddressPerMinute: perAddress }),
    });
    const sandbox = await addSiteKey(tx, inbox.id, 'sandbox');
    const live = liveOrigins.length > 0 ? await addSiteKey(tx, inbox.id, 'live', liveOrigins) : undefined;
    return { inbox, sandbox, live };
  });
  const lines = [`Inbox ${made.inbox.id} (${made.inbox.name})`, `  sandbox site key: ${made.sandbox.key}`];
  if (made.live) lines.push(`  live site key (works from ${made.live.allowedOrigins.join(', ')}): ${made.live.key}`);
  if (perAddress !== undefined) lines.push(`  new messages a minute to the AI from one address: at most ${perAddress}`);
  process.stdout.write(`${lines.join('\n')}\n`);
});
