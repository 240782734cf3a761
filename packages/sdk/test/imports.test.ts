import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The SDK promises to run anywhere `fetch` exists with nothing installed beside it, so its
 * shipped code may import only its own files: no packages, and no `node:` module at the top
 * level (a browser would fail to load the SDK at all). Node modules may only be imported
 * dynamically, inside the code paths that need them (reading a file from a path).
 */
const packageRoot = fileURLToPath(new URL('..', import.meta.url));

function filesUnder(folder: string, keep: (name: string) => boolean): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter(keep)
    .map((name) => join(folder, name));
}

interface ModuleReference {
  readonly file: string;
  readonly specifier: string;
  readonly dynamic: boolean;
}

interface SourceText {
  readonly file: string;
  readonly text: string;
}

function read(paths: readonly string[]): SourceText[] {
  return paths.map((path) => ({
    file: path.slice(packageRoot.length),
    text: readFileSync(path, 'utf8'),
  }));
}

/** Every `import`/`export … from`/`import type`/`import()` of the files, with how it is made. */
function moduleReferences(sources: readonly SourceText[]): ModuleReference[] {
  return sources.flatMap(({ file, text }) => {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
    const found: ModuleReference[] = [];
    const visit = (node: ts.Node): void => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        found.push({ file, specifier: node.moduleSpecifier.text, dynamic: false });
      } else if (ts.isImportTypeNode(node)) {
        const argument = node.argument;
        if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) {
          found.push({ file, specifier: argument.literal.text, dynamic: false });
        }
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword
      ) {
        const [argument] = node.arguments;
        found.push({
          file,
          specifier: argument && ts.isStringLiteral(argument) ? argument.text : '(computed)',
          dynamic: true,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  });
}

const isRelative = (specifier: string): boolean =>
  specifier.startsWith('./') || specifier.startsWith('../');

/** What the shipped code may not import: packages anywhere, `node:` modules at the top level. */
function forbiddenImports(sources: readonly SourceText[]): string[] {
  return moduleReferences(sources)
    .filter(
      ({ specifier, dynamic }) =>
        !isRelative(specifier) && !(dynamic && specifier.startsWith('node:')),
    )
    .map(
      ({ file, specifier, dynamic }) => `${file}: ${dynamic ? 'import()' : 'import'} ${specifier}`,
    );
}

const sourceFiles = read(
  filesUnder(
    join(packageRoot, 'src'),
    (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
  ),
);

describe('runtime dependencies', () => {
  it('src imports only relative files, and node: modules only dynamically', () => {
    expect(sourceFiles.length).toBeGreaterThan(3);
    expect(forbiddenImports(sourceFiles)).toEqual([]);
  });

  it('src imports node: modules in node-files.ts only', () => {
    const nodeImports = moduleReferences(sourceFiles).filter(({ specifier }) =>
      specifier.startsWith('node:'),
    );
    expect(nodeImports.length).toBeGreaterThan(0);
    expect(new Set(nodeImports.map(({ file }) => file))).toEqual(
      new Set([join('src', 'node-files.ts')]),
    );
  });

  // `pnpm test` builds first (turbo's test task depends on build), so dist is there.
  it('dist (JavaScript and declarations) imports only relative files, and node: modules only dynamically', () => {
    const built = read(
      filesUnder(
        join(packageRoot, 'dist'),
        (name) => name.endsWith('.js') || name.endsWith('.d.ts'),
      ),
    );
    expect(built.length).toBeGreaterThan(3);
    expect(forbiddenImports(built)).toEqual([]);
  });

  it('the checker catches a top-level node: import and package imports, static or not', () => {
    const probe = {
      file: 'probe.ts',
      text: [
        "import { readFileSync } from 'node:fs';",
        "import type { z } from 'zod';",
        "export { sleep } from './sleep.ts';",
        "export type Schema = import('zod').ZodType;",
        "export const lazyNode = () => import('node:fs/promises');",
        "export const lazyPackage = () => import('some-package');",
      ].join('\n'),
    };
    expect(forbiddenImports([probe])).toEqual([
      'probe.ts: import node:fs',
      'probe.ts: import zod',
      'probe.ts: import zod',
      'probe.ts: import() some-package',
    ]);
  });

  it('package.json declares no runtime dependency', () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
  });
});
