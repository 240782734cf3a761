import { access, copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMAND_HANG_MS,
  emptyProject,
  ok,
  packInto,
  sh,
  tarballEntries,
  userEnv,
} from './support/npm-project.ts';
import { type RunningService, startService } from './support/service.ts';

const cliFolder = join(import.meta.dirname, '../../cli');
const fixturePhotos = join(import.meta.dirname, '../../../fixtures/photos');
const photo = join(fixturePhotos, 'fig-0.25mp.jpg');
const IN_REQUEST_LIMIT = 1024 * 1024;

// The install of apps/cli/README.md (pack, npm install the tarball, npx hallmark), then its commands.
describe('the packed CLI, installed with plain npm into an empty project', () => {
  let service: RunningService;
  let folder: string;
  let project: string;
  let tarball: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'hallmark-cli-package-'));
    project = join(folder, 'project');
    const [started, packed] = await Promise.all([
      // Below the CLI's own 10 MiB: a larger file is refused in the request and goes as a job.
      startService({ VERIFY_SYNC_MAX_BYTES: String(IN_REQUEST_LIMIT) }),
      packInto(cliFolder, folder),
    ]);
    service = started;
    tarball = packed;
    await emptyProject(project, { name: 'uses-hallmark', private: true });
    // c2pa-node's install script would fetch its native module from GitHub (unreachable
    // offline); the module is already in its npm tarball, so the script is skipped, as the
    // CLI README says.
    await ok(
      'npm',
      ['install', '--no-audit', '--no-fund', tarball],
      project,
      userEnv({ SKIP_RUST_BUILD: '1' }),
    );
  }, 2 * COMMAND_HANG_MS);

  afterAll(async () => {
    await service?.close();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it('holds the bundle, its manifest and README, and no workspace dependency', async () => {
    const entries = await tarballEntries(tarball);
    // The commands' code sits in chunks, loaded when a command runs.
    const chunks = entries.filter((entry) => entry.startsWith('package/dist/chunks/'));
    expect(entries.filter((entry) => !chunks.includes(entry))).toEqual([
      'package/README.md',
      'package/dist/hallmark.js',
      'package/package.json',
    ]);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.filter((chunk) => !chunk.endsWith('.js'))).toEqual([]);
    const manifest = JSON.parse(
      await readFile(join(project, 'node_modules/@hallmark/cli/package.json'), 'utf8'),
    ) as { dependencies: Record<string, string> };
    expect(
      Object.keys(manifest.dependencies).filter((name) => name.startsWith('@hallmark/')),
    ).toEqual([]);
  });

  it('`npx hallmark watermark` reads the .env, calls the service there and writes the file', async () => {
    const { apiKey } = await service.newClient();
    await copyFile(photo, join(project, 'photo.jpg'));
    // No HALLMARK_URL: the CLI finds the API from PORT, as `pnpm start` serves it.
    const port = new URL(service.baseUrl).port;
    await writeFile(
      join(project, '.env'),
      [
        `PORT=${port}`,
        `HALLMARK_API_KEY=${apiKey}`,
        `DATABASE_URL=${service.env.DATABASE_URL}`,
        `HALLMARK_DATA_DIR=${service.env.HALLMARK_DATA_DIR}`,
      ].join('\n'),
    );
    const marked = await ok(
      'npx',
      ['hallmark', 'watermark', 'photo.jpg', '--author', 'Ada', '--out', 'marked.jpg', '--json'],
      project,
    );
    const job = JSON.parse(marked.stdout) as { requestId: string; status: string };
    expect(job.status).toBe('success');

    const row = await service.prisma.watermarkJob.findUniqueOrThrow({
      where: { id: job.requestId },
    });
    const detected = await ok('npx', ['hallmark', 'detect', 'marked.jpg'], project);
    expect(detected.stdout.trim()).toBe(row.markPayload);

    // Signed by the service's development identity: trusted only against its root, given.
    const root = join(service.env.HALLMARK_DATA_DIR ?? '', 'c2pa/development-identity/root-ca.pem');
    const inspected = await ok(
      'npx',
      ['hallmark', 'inspect', 'marked.jpg', '--json', '--trust', root],
      project,
    );
    const manifest = JSON.parse(inspected.stdout) as {
      validation: { state: string };
      metadata: { author?: string };
    };
    expect(manifest.validation.state).toBe('trusted');
    expect(manifest.metadata.author).toBe('Ada');

    // And back through the service: the downloaded file verifies as authentic (exit 0).
    const verified = await ok('npx', ['hallmark', 'verify', 'marked.jpg'], project);
    expect(verified.stdout.split('\n')[0]).toBe('authentic');
    expect(verified.stdout).toContain('author=Ada');
    // In one request: nothing was uploaded or kept.
    const inRequest = await service.prisma.verification.findFirstOrThrow({
      orderBy: { createdAt: 'desc' },
    });
    expect([inRequest.verdict, inRequest.fileId]).toEqual(['authentic', null]);

    // Over the deployment's limit: refused in the request, then verified as a job (kept).
    await sharp(join(project, 'marked.jpg'))
      .resize({ width: 1600 })
      .png({ compressionLevel: 0 })
      .toFile(join(project, 'large.png'));
    expect((await stat(join(project, 'large.png'))).size).toBeGreaterThan(IN_REQUEST_LIMIT);
    const large = await sh('npx', ['hallmark', 'verify', 'large.png'], project);
    const asJob = await service.prisma.verification.findFirstOrThrow({
      orderBy: { createdAt: 'desc' },
    });
    expect(asJob.fileId).not.toBeNull();
    expect(large.stdout.split('\n')[0]).toBe(asJob.verdict);

    // A patch pasted over it: content_edited, exit 4, and --regions draws where.
    const output = await readFile(join(project, 'marked.jpg'));
    const { width = 0, height = 0 } = await sharp(output).metadata();
    const patch = await sharp(join(fixturePhotos, 'boats-0.6mp.jpg'))
      .resize(Math.round(width / 3), Math.round(height / 3), { fit: 'cover' })
      .toBuffer();
    await sharp(output)
      .composite([{ input: patch, left: Math.round(width / 2), top: Math.round(height / 4) }])
      .jpeg({ quality: 90 })
      .toFile(join(project, 'edited.jpg'));
    const edited = await sh(
      'npx',
      ['hallmark', 'verify', 'edited.jpg', '--regions', 'regions.png'],
      project,
    );
    expect(edited.code, edited.stderr).toBe(4);
    expect(edited.stdout.split('\n')[0]).toBe('content_edited');
    expect(edited.stdout).toMatch(/edited: \d+x\d+ at \d+,\d+/);
    expect(edited.stdout).toContain('regions: 1 drawn in regions.png');
    const drawn = await sharp(join(project, 'regions.png')).metadata();
    expect([drawn.format, drawn.width, drawn.height]).toEqual(['png', width, height]);

    // A recording has no picture to draw on: its verdict, and no regions file.
    await copyFile(join(fixturePhotos, '../media/sample.wav'), join(project, 'sound.wav'));
    const sound = await sh(
      'npx',
      ['hallmark', 'verify', 'sound.wav', '--regions', 'sound.png'],
      project,
    );
    expect(sound.code, sound.stderr).toBe(5);
    expect(sound.stdout.split('\n')[0]).toBe('no_provenance');
    expect(sound.stdout).toContain('regions: none drawn (sound.wav is not a picture)');
    await expect(access(join(project, 'sound.png'))).rejects.toThrow();
  });

  it('`npx hallmark watermark a.jpg b.jpg c.jpg` marks them as a batch with one progress bar', async () => {
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) await copyFile(photo, join(project, name));
    const marked = await ok(
      'npx',
      ['hallmark', 'watermark', 'a.jpg', 'b.jpg', 'c.jpg', '--c2pa', '--author', 'Ada'],
      project,
    );
    expect(marked.stdout.trim().split('\n')).toEqual([
      'a.watermarked.jpg',
      'b.watermarked.jpg',
      'c.watermarked.jpg',
    ]);
    // Not a terminal: one line per change of the bar, ending with every file done.
    expect(marked.stderr.trim().split('\n').at(-1)).toBe(`[${'#'.repeat(24)}] 3/3 done`);
    const inspected = await ok(
      'npx',
      ['hallmark', 'inspect', 'c.watermarked.jpg', '--json'],
      project,
    );
    expect(
      (JSON.parse(inspected.stdout) as { metadata: { author?: string } }).metadata.author,
    ).toBe('Ada');
    expect(await service.prisma.watermarkBatch.count()).toBe(1);
  });

  it('`npx hallmark keys list` names the database it read on stderr', async () => {
    const listed = await ok('npx', ['hallmark', 'keys', 'list', '--json'], project);
    const database = new URL(service.env.DATABASE_URL ?? '').pathname.slice(1);
    expect(listed.stderr).toContain(`database ${database} on 127.0.0.1:5432\n`);
    const keys = JSON.parse(listed.stdout) as Array<{ name: string }>;
    expect(keys.map((key) => key.name)).toContain('e2e');
  });
});
