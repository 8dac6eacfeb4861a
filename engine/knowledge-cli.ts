import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CreateKnowledgeRequest } from '../shared/schemas/engine-knowledge.ts';
import { dataFolder, migrate, openSql } from '../shared/server/index.ts';
import { ENGINE_MIGRATIONS } from './app.ts';
import { findAccount } from './store/accounts.ts';
import { importKnowledgeDocument } from './store/knowledge.ts';

/**
 * `npm run engine:knowledge -- --account acc_… --dir ./articles [--approve]`: imports every
 * `*.md` file of a folder as a knowledge document of the account. The title is a front matter
 * `title:` line, else the first `# ` heading, else the file's name; a front matter `url:` line is
 * the document's address. A file's name is its key: importing a file of the same name again
 * updates its document (a change takes its approval away) instead of adding another. With
 * `--approve` the imported documents are approved. Every file is checked before any is imported,
 * and the import is one transaction: a bad file imports nothing.
 */
const USAGE = 'Usage: npm run engine:knowledge -- --account acc_… --dir <folder of .md files> [--approve]\n';

let values: { account?: string | undefined; dir?: string | undefined; approve?: boolean | undefined };
try {
  ({ values } = parseArgs({
    options: { account: { type: 'string' }, dir: { type: 'string' }, approve: { type: 'boolean', default: false } },
  }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!values.account || !values.dir) {
  process.stderr.write(`Give --account and --dir.\n${USAGE}`);
  process.exit(2);
}

interface KnowledgeFile {
  source: string;
  title: string;
  body: string;
  url: string | null;
}

/** A markdown file as a document: an optional front matter (`---` lines around `key: value` lines), then the body. */
function readDocument(name: string, text: string): { source: string; input: unknown } {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const front = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(normalised);
  const fields = new Map<string, string>();
  for (const line of front?.[1]?.split('\n') ?? []) {
    const field = /^([A-Za-z_]+)\s*:\s*(.*)$/.exec(line);
    if (field) fields.set(field[1]!.toLowerCase(), field[2]!.trim().replace(/^(["'])(.*)\1$/, '$2'));
  }
  const body = front ? normalised.slice(front[0].length) : normalised;
  const title = fields.get('title') || /^#\s+(.+)$/m.exec(body)?.[1]?.trim() || name.replace(/\.md$/i, '');
  const url = fields.get('url');
  return { source: name, input: { title, body, ...(url ? { url } : {}) } };
}

async function readFolder(folder: string): Promise<{ files: KnowledgeFile[]; problems: string[] }> {
  const names = (await readdir(folder)).filter((name) => name.toLowerCase().endsWith('.md')).sort();
  const files: KnowledgeFile[] = [];
  const problems: string[] = [];
  for (const name of names) {
    if (!(await stat(join(folder, name))).isFile()) continue;
    const { source, input } = readDocument(name, await readFile(join(folder, name), 'utf8'));
    const parsed = CreateKnowledgeRequest.safeParse(input);
    if (parsed.success)
      files.push({ source, title: parsed.data.title, body: parsed.data.body, url: parsed.data.url ?? null });
    else
      problems.push(
        `${name}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`).join('; ')}`,
      );
  }
  return { files, problems };
}

const folder = resolve(values.dir);
let read: Awaited<ReturnType<typeof readFolder>>;
try {
  read = await readFolder(folder);
} catch (error) {
  process.stderr.write(`Cannot read the folder ${folder}: ${(error as Error).message}\n`);
  process.exit(1);
}
if (read.problems.length > 0) {
  process.stderr.write(
    `Nothing was imported; these files are not valid documents:\n${read.problems.map((problem) => `  ${problem}\n`).join('')}`,
  );
  process.exit(1);
}
if (read.files.length === 0) {
  process.stderr.write(`No .md files in ${folder}; nothing to import.\n`);
  process.exit(1);
}

const sql = await openSql({
  databaseUrl: process.env['DATABASE_URL'] || undefined,
  dataDir: dataFolder(process.env['DATA_DIR'] ?? './.data', 'engine'),
  schema: 'engine',
});
try {
  await migrate(sql, ENGINE_MIGRATIONS);
  const accountId = values.account;
  if (!(await findAccount(sql, accountId))) throw new Error(`No account ${accountId}.`);
  const approve = values.approve ?? false;
  const now = new Date();
  const counts = { added: 0, updated: 0, unchanged: 0 };
  let waiting = 0;
  await sql.transaction(async (tx) => {
    for (const file of read.files) {
      const { document, outcome } = await importKnowledgeDocument(tx, accountId, { ...file, approve }, now);
      counts[outcome]++;
      if (!document.approved) waiting++;
      process.stdout.write(
        `${outcome.padEnd(9)} ${document.id} ${basename(file.source)} "${document.title}"${document.approved ? ' (approved)' : ' (not approved)'}\n`,
      );
    }
  });
  process.stdout.write(
    `${counts.added} added, ${counts.updated} updated, ${counts.unchanged} unchanged in ${accountId}.${waiting ? ` ${waiting} not approved: approve them (POST /v1/knowledge/{id}/approve, or import again with --approve) before they answer customers.` : ''}\n`,
  );
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await sql.close();
}
