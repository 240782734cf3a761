import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema } from '@hallmark/config';
import { HANG_MS } from '@hallmark/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DocBlock,
  docBlocks,
  fencesOf,
  modeOf,
  placeOf,
  repositoryRoot,
} from './support/doc-blocks.ts';
import { type CommandResult, sh, userEnv } from './support/npm-project.ts';
import { type RunningService, startService } from './support/service.ts';

// Every fenced block of the repository's Markdown is accounted for by its info string (see
// support/doc-blocks.ts): shell blocks run, page by page, in one bash session each against a real
// service; JSON parses; settings name real variables; TypeScript compiles in sdk-package.test.ts;
// what cannot run says why, and what another test runs names that test.

const photo = join(repositoryRoot, 'fixtures/photos/fig-0.25mp.jpg');
const copy = join(repositoryRoot, 'fixtures/photos/moss-1mp.jpg');
/** A session runs several jobs and CLI starts one after another: a hang bound for them all. */
const SESSION_HANG_MS = 3 * HANG_MS;

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

interface SessionResult extends CommandResult {
  /** The block that was running when the session ended, `undefined` when every block finished. */
  readonly failedAt: string | undefined;
}

/**
 * Runs shell blocks as a reader pastes them into one terminal, in order, in `work`: the
 * variables one sets, the next reads. Unlike a terminal the session stops at the first failing
 * command (`set -e`, `pipefail`), and says which block it was in.
 */
async function runSession(
  blocks: readonly DocBlock[],
  work: string,
  env: NodeJS.ProcessEnv,
): Promise<SessionResult> {
  const scripts = await mkdtemp(join(tmpdir(), 'hallmark-doc-session-'));
  try {
    const current = join(scripts, 'current');
    const lines = ['set -eo pipefail', `cd ${quote(work)}`];
    for (const [index, block] of blocks.entries()) {
      lines.push(`printf '%s\\n' ${quote(placeOf(block))} > ${quote(current)}`);
      if (block.mode.kind === 'script') {
        await writeFile(join(work, block.mode.name), block.code);
        lines.push(['bash', block.mode.name, ...block.mode.args].map(quote).join(' '));
      } else {
        const file = join(scripts, `${index}.sh`);
        await writeFile(file, block.code);
        lines.push(`source ${quote(file)}`);
      }
    }
    lines.push(`printf 'done\\n' > ${quote(current)}`);
    const session = join(scripts, 'session.sh');
    await writeFile(session, `${lines.join('\n')}\n`);
    const result = await sh('bash', [session], work, env, SESSION_HANG_MS);
    const last = existsSync(current) ? (await readFile(current, 'utf8')).trim() : undefined;
    const failedAt = result.code === 0 && last === 'done' ? undefined : (last ?? '(before any)');
    return { ...result, failedAt };
  } finally {
    await rm(scripts, { recursive: true, force: true });
  }
}

/**
 * A folder as the pages assume the reader's: `photo.jpg` and `copy.jpg` in it, and `pnpm
 * hallmark` and `./dev` working as they do in a clone's root (the clone's own scripts, with the
 * files named relative to this folder).
 */
async function readersFolder(): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'hallmark-doc-blocks-'));
  await copyFile(photo, join(work, 'photo.jpg'));
  await copyFile(copy, join(work, 'copy.jpg'));
  const hallmark = `bash ${quote(join(repositoryRoot, 'scripts/hallmark.sh'))}`;
  await writeFile(
    join(work, 'package.json'),
    JSON.stringify({ name: 'a-clone', private: true, scripts: { hallmark } }),
  );
  await writeFile(
    join(work, 'dev'),
    `#!/usr/bin/env bash\nexec ${quote(join(repositoryRoot, 'dev'))} "$@"\n`,
    { mode: 0o755 },
  );
  return work;
}

const blocks = docBlocks();
/** The shell blocks that run, by page, in the page's order. */
const shellSessions = new Map<string, DocBlock[]>();
for (const block of blocks) {
  if (block.mode.kind !== 'run' && block.mode.kind !== 'script') continue;
  shellSessions.set(block.file, [...(shellSessions.get(block.file) ?? []), block]);
}

describe('the info string convention', () => {
  it('reads a language and a mode, and refuses what it cannot test', () => {
    expect(modeOf('bash').mode).toEqual({ kind: 'run' });
    expect(modeOf('sh script: watermark.sh photo.jpg').mode).toEqual({
      kind: 'script',
      name: 'watermark.sh',
      args: ['photo.jpg'],
    });
    expect(modeOf('bash env').mode).toEqual({ kind: 'env' });
    expect(modeOf('ts').mode).toEqual({ kind: 'compile' });
    expect(modeOf('bash no-run: needs Docker').mode).toEqual({
      kind: 'no-run',
      reason: 'needs Docker',
    });
    expect(modeOf('sh tested-by: apps/x.test.ts').mode).toEqual({
      kind: 'tested-by',
      test: 'apps/x.test.ts',
    });
    for (const info of ['', 'python', 'bash no-run', 'bash no-run:', 'json env', 'ts script: a']) {
      expect(modeOf(info).mode.kind, info).toBe('invalid');
    }
  });

  it('finds blocks with their lines, not inline code, an unclosed one too', () => {
    const markdown =
      '# T\n```bash\necho a\n```\n```` ```inline``` ````\n~~~~ts\nconst a = 1;\n~~~\n~~~~\n```json\n{}';
    expect(fencesOf(markdown)).toEqual([
      { open: 1, close: 3, info: 'bash', code: 'echo a\n' },
      { open: 5, close: 8, info: 'ts', code: 'const a = 1;\n~~~\n' },
      { open: 9, close: 10, info: 'json', code: '{}\n' },
    ]);
  });
});

describe('a shell session', () => {
  const block = (line: number, code: string): DocBlock => ({
    file: 'docs/page.md',
    line,
    language: 'bash',
    code,
    mode: { kind: 'run' },
  });

  it('carries variables from block to block, and names the block that fails', async () => {
    const work = await mkdtemp(join(tmpdir(), 'hallmark-doc-session-test-'));
    try {
      const env = userEnv();
      const good = await runSession(
        [block(3, 'GREETING=hello\n'), block(9, 'echo "$GREETING"\n')],
        work,
        env,
      );
      expect(good).toMatchObject({ code: 0, stdout: 'hello\n', failedAt: undefined });
      // A failing command in the middle of a block fails it, though the block's last one succeeds.
      const bad = await runSession(
        [block(3, 'true\n'), block(9, 'false\necho after\n'), block(20, 'echo never\n')],
        work,
        env,
      );
      expect(bad).toMatchObject({ code: 1, stdout: '', failedAt: 'docs/page.md:9' });
      const script = await runSession(
        [
          {
            ...block(30, 'echo "$1" >&2\nexit 3\n'),
            mode: { kind: 'script', name: 'tool.sh', args: ['an argument'] },
          },
        ],
        work,
        env,
      );
      expect(script).toMatchObject({
        code: 3,
        stderr: 'an argument\n',
        failedAt: 'docs/page.md:30',
      });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

describe("the repository's Markdown code blocks", () => {
  it('each says what tests it, and the counts add up', () => {
    const invalid = blocks.flatMap((block) =>
      block.mode.kind === 'invalid' ? [`${placeOf(block)}: ${block.mode.problem}`] : [],
    );
    expect(invalid).toEqual([]);
    const counts: Record<string, number> = {};
    for (const { mode } of blocks) counts[mode.kind] = (counts[mode.kind] ?? 0) + 1;
    console.log(`doc blocks by mode: ${JSON.stringify(counts)}`);
    // The pages a reader starts from have blocks that run.
    expect([...shellSessions.keys()]).toEqual(
      expect.arrayContaining(['README.md', 'docs/flow.md', 'docs/verification.md']),
    );
  });

  it('what another test runs names a test file that reads the page', () => {
    const wrong = blocks.flatMap((block) => {
      if (block.mode.kind !== 'tested-by') return [];
      const test = join(repositoryRoot, block.mode.test);
      if (!existsSync(test)) return [`${placeOf(block)}: no ${block.mode.test}`];
      return readFileSync(test, 'utf8').includes(block.file)
        ? []
        : [`${placeOf(block)}: ${block.mode.test} does not name ${block.file}`];
    });
    expect(wrong).toEqual([]);
  });

  it('JSON blocks parse', () => {
    const json = blocks.filter(({ mode }) => mode.kind === 'parse');
    expect(json.length).toBeGreaterThan(0);
    const broken = json.flatMap((block) => {
      try {
        JSON.parse(block.code);
        return [];
      } catch (error) {
        return [`${placeOf(block)}: ${String(error)}`];
      }
    });
    expect(broken).toEqual([]);
  });

  it('settings blocks set only variables of the configuration', () => {
    const settings = blocks.filter(({ mode }) => mode.kind === 'env');
    expect(settings.length).toBeGreaterThan(0);
    const known = new Set(Object.keys(configSchema.shape));
    const wrong = settings.flatMap((block) =>
      block.code.split('\n').flatMap((line, index) => {
        const setting = line.replace(/#.*$/, '').trim();
        if (setting === '') return [];
        const name = /^([A-Z][A-Z0-9_]*)=\S*$/.exec(setting)?.[1];
        const at = `${block.file}:${block.line + 1 + index}`;
        if (name === undefined) return [`${at}: not NAME=value: ${setting}`];
        return known.has(name) ? [] : [`${at}: ${name} is no configuration variable`];
      }),
    );
    expect(wrong).toEqual([]);
  });
});

describe('shell blocks, run page by page against the real service', () => {
  let service: RunningService;
  const folders: string[] = [];

  beforeAll(async () => {
    service = await startService();
  });

  afterAll(async () => {
    await service?.close();
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  for (const [file, session] of shellSessions) {
    const places = session.map((block) => block.line).join(', ');
    it(`${file} (lines ${places})`, { timeout: SESSION_HANG_MS + 60_000 }, async () => {
      const work = await readersFolder();
      folders.push(work);
      const { apiKey } = await service.newClient();
      const result = await runSession(
        session,
        work,
        userEnv({
          // The service's own settings, for the operators' commands that reach its database.
          ...service.env,
          HALLMARK_URL: service.baseUrl,
          HALLMARK_API_KEY: apiKey,
          HALLMARK_ADMIN_PASSWORD: 'correct horse battery staple',
          // Built before the tests: `pnpm hallmark` must not start a build inside this run.
          HALLMARK_CLI_PREBUILT: '1',
          WAIT_SECONDS: '110',
        }),
      );
      expect(result.failedAt, `${result.stderr}\n${result.stdout}`).toBeUndefined();
      expect(result.code).toBe(0);
    });
  }
});
