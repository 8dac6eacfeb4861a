import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  CreateKnowledgeRequest,
  KNOWLEDGE_DEFAULT_LOCALE,
  KnowledgeLocale,
} from '../shared/schemas/engine-knowledge.ts';
import { dataFolder, migrate, openSql } from '../shared/server/index.ts';
import { ENGINE_MIGRATIONS } from './app.ts';
import { findAccount } from './store/accounts.ts';
import type { Environment } from '../shared/environment.ts';
import { importKnowledgeDocument } from './store/knowledge-copies.ts';

/**
 * `npm run engine:knowledge -- --account acc_… --dir ./articles [--approve] [--locale xx] [--env test|live]`:
 * imports every `*.md` file of a folder as a knowledge document of the account, in both environments
 * (sandbox and live, as the demo fills them) or only the one `--env` names, in the language `--locale`
 * (en when left out), and every `*.md` file of each subfolder named by a language tag (`de/`,
 * `pt-BR/`) in that language; other subfolders are ignored, with a line saying so. The title is a
 * front matter `title:` line, else the first `# ` heading, else the file's name; a front matter
 * `url:` line is the document's address. A file's key is its name, and `<tag>/<name>` in a
 * language's subfolder (so `de/returns.md` and `returns.md` are two documents): importing a file of
 * the same key again updates its document (a change takes its approval away) instead of adding
 * another. With `--approve` the imported documents are approved. Every file is checked before any
 * is imported, and the import is one transaction: a bad file imports nothing.
 */
const USAGE =
  'Usage: npm run engine:knowledge -- --account acc_… --dir <folder of .md files> [--approve] [--locale <language tag>] [--env test|live]\n';

let values: {
  account?: string | undefined;
  dir?: string | undefined;
  approve?: boolean | undefined;
  locale?: string | undefined;
  env?: string | undefined;
};
try {
  ({ values } = parseArgs({
    options: {
      account: { type: 'string' },
      dir: { type: 'string' },
      approve: { type: 'boolean', default: false },
      locale: { type: 'string', default: KNOWLEDGE_DEFAULT_LOCALE },
      env: { type: 'string' },
    },
  }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!values.account || !values.dir) {
  process.stderr.write(`Give --account and --dir.\n${USAGE}`);
  process.exit(2);
}
const ENVIRONMENTS: Record<string, Environment[]> = { test: ['sandbox'], live: ['live'] };
const environments: Environment[] = values.env === undefined ? ['sandbox', 'live'] : (ENVIRONMENTS[values.env] ?? []);
if (environments.length === 0) {
  process.stderr.write(`--env takes test or live, not "${values.env}".\n${USAGE}`);
  process.exit(2);
}
const isLanguageTag = (name: string): boolean => KnowledgeLocale.safeParse(name).success;
const rootLocale = values.locale ?? KNOWLEDGE_DEFAULT_LOCALE;
if (!isLanguageTag(rootLocale)) {
  process.stderr.write(`--locale takes a language tag such as de or pt-BR, not "${rootLocale}".\n${USAGE}`);
  process.exit(2);
}

interface KnowledgeFile {
  source: string;
  title: string;
  body: string;
  url: string | null;
  locale: string;
}

interface FolderReading {
  files: KnowledgeFile[];
  /** One line per file that is not a valid document. */
  problems: string[];
  /** Subfolders not named by a language tag, which are not read. */
  ignored: string[];
}

/** A markdown file as a document: an optional front matter (`---` lines around `key: value` lines), then the body. */
function readDocument(name: string, text: string): { title: string; body: string; url?: string } {
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
  return { title, body, ...(url ? { url } : {}) };
}

/** The `*.md` files directly in `folder`, each a document in `locale` whose key is `prefix` and its name. */
async function readFiles(folder: string, locale: string, prefix: string, into: FolderReading): Promise<void> {
  const names = (await readdir(folder)).filter((name) => name.toLowerCase().endsWith('.md')).sort();
  for (const name of names) {
    if (!(await stat(join(folder, name))).isFile()) continue;
    const source = prefix + name;
    const document = readDocument(name, await readFile(join(folder, name), 'utf8'));
    const parsed = CreateKnowledgeRequest.safeParse({ ...document, locale });
    if (parsed.success)
      into.files.push({
        source,
        title: parsed.data.title,
        body: parsed.data.body,
        url: parsed.data.url ?? null,
        locale,
      });
    else
      into.problems.push(
        `${source}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`).join('; ')}`,
      );
  }
}

/** The folder's own files in `locale`, then each language's subfolder in its language, in the order of their names. */
async function readFolder(folder: string, locale: string): Promise<FolderReading> {
  const reading: FolderReading = { files: [], problems: [], ignored: [] };
  await readFiles(folder, locale, '', reading);
  for (const name of (await readdir(folder)).sort()) {
    if (!(await stat(join(folder, name))).isDirectory()) continue;
    if (isLanguageTag(name)) await readFiles(join(folder, name), name, `${name}/`, reading);
    else reading.ignored.push(name);
  }
  return reading;
}

const folder = resolve(values.dir);
let read: FolderReading;
try {
  read = await readFolder(folder, rootLocale);
} catch (error) {
  process.stderr.write(`Cannot read the folder ${folder}: ${(error as Error).message}\n`);
  process.exit(1);
}
for (const name of read.ignored)
  process.stderr.write(`Ignored the folder ${name}/: its name is not a language tag such as de or pt-BR.\n`);
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
    for (const environment of environments)
      for (const file of read.files) {
        const owner = { accountId, environment };
        const { document, outcome } = await importKnowledgeDocument(tx, owner, { ...file, approve }, now);
        counts[outcome]++;
        if (!document.approved) waiting++;
        process.stdout.write(
          `${outcome.padEnd(9)} ${environment.padEnd(7)} ${document.id} ${file.source} "${document.title}"${document.approved ? ' (approved)' : ' (not approved)'}\n`,
        );
      }
  });
  process.stdout.write(
    `${counts.added} added, ${counts.updated} updated, ${counts.unchanged} unchanged in ${accountId} (${environments.join(' and ')}).${waiting ? ` ${waiting} not approved: approve them (POST /v1/knowledge/{id}/approve, or import again with --approve) before they answer customers.` : ''}\n`,
  );
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await sql.close();
}
