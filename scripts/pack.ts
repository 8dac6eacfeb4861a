/**
 * `npm run pack`: compiles the two npm packages of issue 35 and writes installable tarballs to
 * `dist/packages/`: `parley-widget-<version>.tgz` (@parley/widget, the typed ESM entry) and
 * `parley-react-native-<version>.tgz` (@parley/react-native, `<ParleyChat>`). Each is compiled by
 * TypeScript to JavaScript with declarations, staged in `dist/packages/build/<folder>/` with its
 * package.json and README, and packed by `npm pack`. Prints the tarballs' paths.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { REACT_NATIVE_PACKAGE, WIDGET_PACKAGE, type CommonFields, type PackageSpec } from './pack-manifests.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PACKAGES_DIR = join(ROOT, 'dist', 'packages');
const run = promisify(execFile);

/** Compiles the package's entry and what it reaches into `<stage>/dist`, or throws with the compiler's messages. */
function compile(spec: PackageSpec, stage: string): void {
  const options: ts.CompilerOptions = {
    ...ts.convertCompilerOptionsFromJson(
      {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
        isolatedModules: true,
        skipLibCheck: true,
        types: [],
        declaration: true,
        // The sources import each other as `./x.ts`; the package's files are `./x.js`.
        rewriteRelativeImportExtensions: true,
        ...spec.compilerOptions,
      },
      ROOT,
    ).options,
    rootDir: join(ROOT, spec.rootDir),
    outDir: join(stage, 'dist'),
  };
  const program = ts.createProgram([join(ROOT, spec.entry)], options);
  const result = program.emit();
  const problems = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (problems.length > 0) {
    const host = {
      getCanonicalFileName: (name: string) => name,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => '\n',
    };
    throw new Error(`${spec.folder} does not compile:\n${ts.formatDiagnostics(problems, host)}`);
  }
}

/** Declarations keep the sources' `.ts` specifiers; the package ships `.js` beside `.d.ts`, which they must name. */
async function fixDeclarationSpecifiers(stage: string): Promise<void> {
  const { stdout } = await run('find', [join(stage, 'dist'), '-name', '*.d.ts']);
  for (const file of stdout.split('\n').filter(Boolean)) {
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.tsx?(['"])/g, '$1.js$2'));
  }
}

/** Stages one package and packs it; gives the tarball's path. */
async function pack(spec: PackageSpec, common: CommonFields): Promise<string> {
  const stage = join(PACKAGES_DIR, 'build', spec.folder);
  await rm(stage, { recursive: true, force: true });
  await mkdir(stage, { recursive: true });
  compile(spec, stage);
  await fixDeclarationSpecifiers(stage);
  await writeFile(join(stage, 'package.json'), `${JSON.stringify(spec.manifest(common), null, 2)}\n`);
  await writeFile(join(stage, 'README.md'), await spec.readme(ROOT));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', PACKAGES_DIR], { cwd: stage });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return join(PACKAGES_DIR, packed!.filename);
}

/** Builds both packages; gives their tarballs' paths by package name. */
export async function packAll(): Promise<Record<'widget' | 'reactNative', string>> {
  const root = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
    license?: string;
    repository?: string | { url: string };
  };
  const url = typeof root.repository === 'string' ? root.repository : root.repository?.url;
  const common: CommonFields = {
    version: root.version,
    // The repository declares no licence yet; npm's word for "none granted" until it does.
    license: root.license ?? 'UNLICENSED',
    repository: (directory) => ({ type: 'git', url: url ?? 'git+https://github.com/parley/parley.git', directory }),
  };
  await mkdir(PACKAGES_DIR, { recursive: true });
  return { widget: await pack(WIDGET_PACKAGE, common), reactNative: await pack(REACT_NATIVE_PACKAGE, common) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const tarballs = await packAll();
  for (const path of Object.values(tarballs)) console.log(path);
}
