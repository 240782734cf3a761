// Builds the installable `hallmark` command: the CLI and the workspace packages it uses
// (@hallmark/*, which are not published) in one ES module, dist/hallmark.js. Every other package
// stays an import, resolved by npm from this package's `dependencies`; the build fails when one is
// missing there or declared at another version than the workspace uses, so the packed CLI runs
// the same code as `pnpm hallmark`.
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type Plugin, rolldown } from 'rolldown';

const cliRoot = join(import.meta.dirname, '..');

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const readManifest = async (path: string): Promise<Manifest> =>
  JSON.parse(await readFile(path, 'utf8')) as Manifest;

/** `@scope/name/sub/path` -> `@scope/name`; `name/sub` -> `name`. */
function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

const isBare = (id: string) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0');

/**
 * Workspace modules read files that sit beside them in their package (`package.json` for a
 * version) with `readFileSync(new URL(path, import.meta.url), 'utf8')`. In the bundle that URL
 * would point beside dist/hallmark.js, so the file's text is inlined at build time instead.
 */
const inlineSiblingFiles: Plugin = {
  name: 'hallmark-inline-sibling-files',
  async transform(code, id) {
    if (id.includes('/node_modules/') || !code.includes('import.meta.url')) return null;
    const pattern =
      /readFileSync\(\s*new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)\s*,\s*(['"])utf8\3\s*,?\s*\)/g;
    const reads = [...code.matchAll(pattern)];
    let out = code;
    for (const [call, , path] of reads) {
      const text = await readFile(resolve(dirname(id), path ?? ''), 'utf8');
      out = out.replace(call, JSON.stringify(text));
    }
    return reads.length > 0 ? { code: out } : null;
  },
};

async function main(): Promise<void> {
  const cli = await readManifest(join(cliRoot, 'package.json'));
  const outDir = join(cliRoot, 'dist');
  await rm(outDir, { recursive: true, force: true });

  const bundle = await rolldown({
    input: { hallmark: join(cliRoot, 'src/main.ts') },
    platform: 'node',
    // Workspace packages expose their TypeScript under `source`: bundle it, no dist needed.
    resolve: { conditionNames: ['source', 'node', 'import', 'default'] },
    external: (id) => isBare(id) && !id.startsWith('@hallmark/'),
    plugins: [inlineSiblingFiles],
    // The workspace modules have no import-time side effects, so a lazily loaded command's chunk
    // holds only the modules it reaches (detect: the mark reader and sharp, no C2PA or database).
    treeshake: { moduleSideEffects: (id) => !id.includes('/packages/') },
  });
  const { output } = await bundle.write({
    dir: outDir,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
  });
  await bundle.close();

  const externals = new Set<string>();
  // Chunks import each other by file name (lazy commands): those are not packages.
  const ownFiles = new Set(output.map((file) => file.fileName));
  for (const chunk of output) {
    if (chunk.type !== 'chunk') continue;
    if (chunk.code.includes('import.meta.url') && /readFileSync\(new URL/.test(chunk.code)) {
      throw new Error(`${chunk.fileName} still reads a file relative to its own URL`);
    }
    for (const id of [...chunk.imports, ...chunk.dynamicImports]) {
      if (isBare(id) && !id.startsWith('node:') && !ownFiles.has(id))
        externals.add(packageNameOf(id));
    }
  }

  const workspaceVersions = await declaredWorkspaceVersions(cli);
  const problems: string[] = [];
  for (const name of [...externals].sort()) {
    // A native module that may fail to build where the CLI is installed is optional: the
    // commands that need it say so when it is missing.
    const declared = cli.dependencies?.[name] ?? cli.optionalDependencies?.[name];
    const used = workspaceVersions.get(name);
    if (declared === undefined) problems.push(`${name} is imported but not in dependencies`);
    else if (used !== undefined && declared !== used)
      problems.push(`${name}: dependencies say ${declared}, the workspace uses ${used}`);
  }
  for (const name of Object.keys({ ...cli.dependencies, ...cli.optionalDependencies })) {
    if (!externals.has(name)) problems.push(`${name} is in dependencies but never imported`);
  }
  if (problems.length > 0) {
    throw new Error(`apps/cli/package.json dependencies:\n  ${problems.join('\n  ')}`);
  }
}

/**
 * The version each third-party package has where the bundled workspace packages declare it:
 * the CLI's @hallmark/* dev dependencies and theirs, found through node_modules links.
 */
async function declaredWorkspaceVersions(cli: Manifest): Promise<Map<string, string>> {
  const versions = new Map<string, string>();
  const seen = new Set<string>();
  const visit = async (manifest: Manifest, folder: string): Promise<void> => {
    const all = { ...manifest.dependencies, ...manifest.devDependencies };
    for (const [name, version] of Object.entries(all)) {
      if (!version.startsWith('workspace:') || seen.has(name)) continue;
      seen.add(name);
      const dependencyFolder = join(folder, 'node_modules', name);
      const dependency = await readManifest(join(dependencyFolder, 'package.json'));
      for (const [external, pinned] of Object.entries(dependency.dependencies ?? {})) {
        if (!pinned.startsWith('workspace:')) versions.set(external, pinned);
      }
      await visit(
        { name, version: dependency.version, dependencies: dependency.dependencies },
        dependencyFolder,
      );
    }
  };
  await visit(cli, cliRoot);
  return versions;
}

await main();
