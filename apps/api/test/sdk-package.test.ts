import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectMark, payloadToHex, readManifest } from '@hallmark/watermark-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docBlocks } from './support/doc-blocks.ts';
import {
  COMMAND_HANG_MS,
  emptyProject,
  ok,
  packInto,
  sh,
  tarballEntries,
} from './support/npm-project.ts';
import { type RunningService, startService } from './support/service.ts';

const root = join(import.meta.dirname, '../../..');
const sdkFolder = join(root, 'packages/sdk');
const photo = join(root, 'fixtures/photos/fig-0.25mp.jpg');

interface Snippet {
  readonly name: string;
  readonly code: string;
}

/**
 * The TypeScript blocks of a Markdown file that are meant to compile (support/doc-blocks.ts: not
 * those marked no-run), named after the file and their order.
 */
function snippetsOf(file: string, prefix: string): Snippet[] {
  return docBlocks([file])
    .filter(({ mode }) => mode.kind === 'compile')
    .map((block, index) => ({ name: `${prefix}-${index + 1}.ts`, code: block.code }));
}

/** Those of every Markdown file of the repository but the two READMEs, checked on their own. */
function guideSnippets(): Snippet[] {
  const files = new Set(
    docBlocks()
      .filter(({ mode }) => mode.kind === 'compile')
      .map(({ file }) => file),
  );
  files.delete('README.md');
  files.delete('packages/sdk/README.md');
  return [...files].flatMap((file) =>
    snippetsOf(file, file.replace(/\.md$/, '').replace(/\W+/g, '-')),
  );
}

async function writeSnippets(folder: string, snippets: readonly Snippet[]): Promise<void> {
  await mkdir(folder, { recursive: true });
  await Promise.all(snippets.map(({ name, code }) => writeFile(join(folder, name), code)));
}

/** The versions this repository builds with, so the user's project checks with the same ones. */
async function workspaceVersions(): Promise<{ typescript: string; typesNode: string }> {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const { typescript, '@types/node': typesNode } = manifest.devDependencies;
  if (typescript === undefined || typesNode === undefined) {
    throw new Error('the root package.json names no typescript or @types/node version');
  }
  return { typescript, typesNode };
}

describe('the packed SDK, installed with plain npm into an empty project', () => {
  let service: RunningService;
  let folder: string;
  let project: string;
  let tarball: string;
  let readmeSnippets: Snippet[];

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'hallmark-sdk-package-'));
    project = join(folder, 'project');
    const [started, packed, versions] = await Promise.all([
      startService(),
      packInto(sdkFolder, folder),
      workspaceVersions(),
    ]);
    service = started;
    tarball = packed;
    // ESM only, as the SDK README says: the project declares "type": "module".
    await emptyProject(project, { name: 'uses-hallmark-sdk', private: true, type: 'module' });
    await ok(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        tarball,
        `typescript@${versions.typescript}`,
        `@types/node@${versions.typesNode}`,
      ],
      project,
    );
    readmeSnippets = [
      ...snippetsOf('README.md', 'readme'),
      ...snippetsOf('packages/sdk/README.md', 'sdk-readme'),
    ];
  }, 2 * COMMAND_HANG_MS);

  afterAll(async () => {
    await service?.close();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it('holds the built code and declarations, the changelog, and no tests', async () => {
    const entries = await tarballEntries(tarball);
    expect(entries).toEqual(
      expect.arrayContaining([
        'package/CHANGELOG.md',
        'package/README.md',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/generated/client.js',
        'package/package.json',
      ]),
    );
    expect(entries.filter((entry) => /\.test\.|\/test\//.test(entry))).toEqual([]);

    const manifest = JSON.parse(
      await readFile(join(project, 'node_modules/@hallmark/sdk/package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(manifest).not.toHaveProperty('private');
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    // The workspace's `source` condition would point a consumer's bundler at TypeScript.
    expect(manifest.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    });
    expect(manifest).not.toHaveProperty('dependencies.@hallmark/schemas');
  });

  it("compiles every README snippet as written under `tsc --init`'s settings", async () => {
    expect(readmeSnippets.map((snippet) => snippet.name)).toEqual(
      expect.arrayContaining(['readme-1.ts', 'sdk-readme-1.ts', 'sdk-readme-2.ts']),
    );
    const init = join(project, 'init');
    await writeSnippets(init, readmeSnippets);
    const tsc = join(project, 'node_modules/.bin/tsc');
    await ok(tsc, ['--init'], init);
    const compiled = await sh(tsc, ['-p', 'tsconfig.json'], init);
    expect(compiled.stdout).toBe('');
    expect(compiled.code).toBe(0);
  });

  it("compiles them and every other page's snippets under strict settings with Node's types", async () => {
    const strict = join(project, 'strict');
    const guide = guideSnippets();
    expect(guide.map((snippet) => snippet.name)).toEqual(
      expect.arrayContaining(['docs-flow-1.ts', 'docs-verification-1.ts', 'docs-webhooks-1.ts']),
    );
    await writeSnippets(strict, [...readmeSnippets, ...guide]);
    await writeFile(
      join(strict, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'node16',
          target: 'es2022',
          types: ['node'],
          noEmit: true,
          noUnusedLocals: true,
          noUnusedParameters: true,
          noImplicitReturns: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: false,
        },
      }),
    );
    const compiled = await sh(
      join(project, 'node_modules/.bin/tsc'),
      ['-p', 'tsconfig.json'],
      strict,
    );
    expect(compiled.stdout).toBe('');
    expect(compiled.code).toBe(0);
  });

  it("compiles and runs the SDK README's first snippet in a CommonJS project, as .mts", async () => {
    // What `npm init -y` makes ("type": "commonjs"), with the file name the README gives for it.
    const commonJs = join(folder, 'commonjs-project');
    await emptyProject(commonJs, {
      name: 'uses-hallmark-sdk-cjs',
      private: true,
      type: 'commonjs',
    });
    const versions = await workspaceVersions();
    await ok(
      'npm',
      ['install', '--no-audit', '--no-fund', tarball, `typescript@${versions.typescript}`],
      commonJs,
    );
    const [quickStart] = snippetsOf('packages/sdk/README.md', 'quickstart');
    await writeFile(join(commonJs, 'quickstart.mts'), quickStart?.code ?? '');
    const tsc = join(commonJs, 'node_modules/.bin/tsc');
    await ok(tsc, ['--init'], commonJs);
    const compiled = await sh(tsc, ['-p', 'tsconfig.json'], commonJs);
    expect(compiled.stdout).toBe('');
    expect(compiled.code).toBe(0);
    await copyFile(photo, join(commonJs, 'photo.jpg'));
    const { apiKey } = await service.newClient();
    const result = await ok('node', ['quickstart.mjs'], commonJs, {
      ...process.env,
      HALLMARK_URL: service.baseUrl,
      HALLMARK_API_KEY: apiKey,
    });
    expect(result.stdout.split('\n')).toEqual(expect.arrayContaining(['uploading', 'done']));
    const marked = await readFile(join(commonJs, 'photo.watermarked.jpg'));
    expect((await detectMark(marked)).payload).not.toBeNull();
    // Plain JavaScript in the same project loads it with require().
    await writeFile(
      join(commonJs, 'required.js'),
      "const { HallmarkClient } = require('@hallmark/sdk');\nconsole.log(typeof HallmarkClient);\n",
    );
    expect((await ok('node', ['required.js'], commonJs)).stdout.trim()).toBe('function');
  });

  it("runs the SDK README's first snippet against the live service: a marked file on disk", async () => {
    // The snippet as `tsc --init` compiled it in the test above, run where photo.jpg is.
    const work = join(project, 'work');
    await mkdir(work);
    await copyFile(photo, join(work, 'photo.jpg'));
    const { apiKey } = await service.newClient();
    const result = await ok('node', [join(project, 'init/sdk-readme-1.js')], work, {
      ...process.env,
      HALLMARK_URL: service.baseUrl,
      HALLMARK_API_KEY: apiKey,
    });
    expect(result.stdout.split('\n')).toEqual(
      expect.arrayContaining(['uploading', 'uploaded', 'queued', 'done']),
    );
    const requestId = /^([0-9a-f-]{36}) /m.exec(result.stdout)?.[1];
    expect(requestId).toBeDefined();

    const marked = await readFile(join(work, 'photo.watermarked.jpg'));
    const row = await service.prisma.watermarkJob.findUniqueOrThrow({
      where: { id: requestId ?? '' },
    });
    const detection = await detectMark(marked);
    expect(payloadToHex(detection.payload ?? 0n)).toBe(row.markPayload);
    const manifest = await readManifest(marked);
    expect(manifest.present && manifest.metadata.author).toBe('Ada Lovelace');
  });
});
