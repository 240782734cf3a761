import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The SDK promises to run anywhere `fetch` exists with nothing installed beside it, so its
 * shipped code may import only its own files: no packages, no `node:` modules.
 */
const packageRoot = fileURLToPath(new URL('..', import.meta.url));

function filesUnder(folder: string, keep: (name: string) => boolean): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter(keep)
    .map((name) => join(folder, name));
}

function nonRelativeImports(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((specifier) => !specifier.startsWith('./') && !specifier.startsWith('../'))
      .map((specifier) => `${file.slice(packageRoot.length)}: ${specifier}`),
  );
}

describe('runtime dependencies', () => {
  it('src imports only relative files', () => {
    const sources = filesUnder(
      join(packageRoot, 'src'),
      (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
    );
    expect(sources.length).toBeGreaterThan(3);
    expect(nonRelativeImports(sources)).toEqual([]);
  });

  it.skipIf(!existsSync(join(packageRoot, 'dist')))(
    'dist (JavaScript and declarations) imports only relative files',
    () => {
      const built = filesUnder(
        join(packageRoot, 'dist'),
        (name) => name.endsWith('.js') || name.endsWith('.d.ts'),
      );
      expect(built.length).toBeGreaterThan(3);
      expect(nonRelativeImports(built)).toEqual([]);
    },
  );

  it('package.json declares no runtime dependency', () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
  });
});
