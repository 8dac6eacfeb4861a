import { readFile } from 'node:fs/promises';

/**
 * The two npm packages `npm run pack` makes (issue 35), declared: where their sources are, how
 * they compile, and their package.json. scripts/pack.ts builds them.
 */
export interface PackageSpec {
  /** The folder under dist/packages/build/ it is staged in, and the tarball's stem. */
  folder: string;
  /** The entry the compiler starts from; what it reaches is compiled with it. */
  entry: string;
  /** The compiler's rootDir: the entry's path below it is kept under `dist/`. */
  rootDir: string;
  compilerOptions: Record<string, unknown>;
  /** The package's README, made from the repository's text. */
  readme: (root: string) => Promise<string>;
  manifest: (common: CommonFields) => Record<string, unknown>;
}

export interface CommonFields {
  version: string;
  license: string;
  repository: (directory: string) => { type: 'git'; url: string; directory: string };
}

/** The exports of one ES module entry with its declarations. */
function entryExports(path: string) {
  const types = `./dist/${path}.d.ts`;
  const code = `./dist/${path}.js`;
  return {
    exports: { '.': { types, default: code }, './package.json': './package.json' },
    main: code,
    module: code,
    types,
  };
}

export const WIDGET_PACKAGE: PackageSpec = {
  folder: 'parley-widget',
  entry: 'widget/esm/index.ts',
  rootDir: 'widget',
  compilerOptions: { lib: ['ES2022', 'DOM'] },
  readme: async (root) => readFile(`${root}/widget/esm/README.md`, 'utf8'),
  manifest: (common) => ({
    name: '@parley/widget',
    version: common.version,
    description: "Parley's chat widget for bundlers: loadParley() with typed commands and events.",
    keywords: ['chat', 'widget', 'customer-support', 'parley'],
    type: 'module',
    ...entryExports('esm/index'),
    files: ['dist', 'README.md'],
    // Importing it runs nothing: loadParley() adds the loader when called.
    sideEffects: false,
    license: common.license,
    repository: common.repository('widget/esm'),
  }),
};

export const REACT_NATIVE_PACKAGE: PackageSpec = {
  folder: 'parley-react-native',
  entry: 'widget/native/index.ts',
  // bridge.ts takes its error codes' type from shared/errors.ts, so the tree starts at the repository's root.
  rootDir: '.',
  compilerOptions: { jsx: 'react-jsx', jsxImportSource: 'react', lib: ['ES2023'] },
  readme: async (root) => {
    const text = await readFile(`${root}/widget/native/README.md`, 'utf8');
    const install =
      '```sh\nnpm install @parley/react-native react-native-webview\n```\n\n' +
      '`react`, `react-native` and `react-native-webview` are peer dependencies: your app brings them.\n\n';
    return text
      .replace(/from '\.\/widget\/native'/g, "from '@parley/react-native'")
      .replace('## Use\n\n', `## Install\n\n${install}## Use\n\n`);
  },
  manifest: (common) => ({
    name: '@parley/react-native',
    version: common.version,
    description: "Parley's chat for React Native apps: <ParleyChat> on react-native-webview, with a typed bridge.",
    keywords: ['chat', 'react-native', 'customer-support', 'parley'],
    type: 'module',
    ...entryExports('widget/native/index'),
    // Metro reads `react-native` before `main`.
    'react-native': './dist/widget/native/index.js',
    files: ['dist', 'README.md'],
    sideEffects: false,
    // The versions it is type-checked against (package.json's devDependencies) and later.
    peerDependencies: { react: '>=19', 'react-native': '>=0.86', 'react-native-webview': '>=16' },
    license: common.license,
    repository: common.repository('widget/native'),
  }),
};
