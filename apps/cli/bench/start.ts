// `pnpm --filter @hallmark/cli bench`: what a call of the installed `hallmark` costs, as whole
// processes (start, module loading, work, exit), each the median of RUNS after one warm-up,
// against `node -e 0` in the same run. The local input is a 0.3 MP PNG marked by `hallmark
// mark`; `hallmark verify` of a 1 MP JPEG runs against a real service (api and worker processes
// on a private database, as the API's tests start them: build first), against the same file
// verified by curl in one request.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startService } from '../../api/test/support/service.ts';

const RUNS = 10;
const DETECT_TARGET_MS = 300;
const VERIFY_TARGET_MS = 1000;
const cli = join(import.meta.dirname, '../dist/hallmark.js');
const photo = join(import.meta.dirname, '../../../fixtures/photos/espresso-0.25mp.jpg');
const photo1mp = join(import.meta.dirname, '../../../fixtures/photos/clock-1mp.jpg');

const folder = await mkdtemp(join(tmpdir(), 'hallmark-cli-bench-'));
try {
  const input = join(folder, 'photo.png');
  const marked = join(folder, 'marked.png');
  // 672 x 448: 0.30 MP.
  await sharp(photo).resize(672, 448, { fit: 'cover' }).png().toFile(input);
  run(process.execPath, [cli, 'mark', input, marked, '--payload', '0123456789abcdef']);

  const service = await startService();
  try {
    const { apiKey } = await service.newClient();
    const env = { ...process.env, HALLMARK_URL: service.baseUrl, HALLMARK_API_KEY: apiKey };
    // [name, program, arguments, exit code, environment]; a detect that finds the mark exits 0,
    // a verify of an unmarked photo 5 (no provenance).
    const commands: Array<[string, string, string[], number, NodeJS.ProcessEnv?]> = [
      ['node -e 0', process.execPath, ['-e', '0'], 0],
      ['hallmark --help', process.execPath, [cli, '--help'], 0],
      ['hallmark detect (0.3 MP PNG, marked)', process.execPath, [cli, 'detect', marked], 0],
      [
        'curl POST /verify/file (1 MP JPEG)',
        'curl',
        [
          '-sf',
          '-o',
          '/dev/null',
          '-H',
          `authorization: Bearer ${apiKey}`,
          '-H',
          'content-type: image/jpeg',
          '--data-binary',
          `@${photo1mp}`,
          `${service.baseUrl}/verify/file`,
        ],
        0,
      ],
      ['hallmark verify (1 MP JPEG)', process.execPath, [cli, 'verify', photo1mp], 5, env],
    ];
    const medians = new Map<string, number>();
    for (const [name, file, args, expected, commandEnv] of commands) {
      medians.set(name, medianMs(file, args, expected, commandEnv));
    }
    const baseline = medians.get('node -e 0') ?? 1;
    const curl = medians.get('curl POST /verify/file (1 MP JPEG)') ?? 1;
    console.log(`whole processes, median of ${RUNS} runs (after one warm-up), ${process.version}`);
    console.log('| command | ms | vs node -e 0 | vs curl | target |');
    console.log('|---|---|---|---|---|');
    for (const [name, ms] of medians) {
      const target = name.startsWith('hallmark detect')
        ? `<= ${DETECT_TARGET_MS} ms ${ms <= DETECT_TARGET_MS ? 'ok' : 'MISSED'}`
        : name.startsWith('hallmark verify')
          ? `<= ${VERIFY_TARGET_MS} ms ${ms <= VERIFY_TARGET_MS ? 'ok' : 'MISSED'}`
          : '';
      const versusCurl = name.includes('verify') ? `${(ms / curl).toFixed(2)}x` : '';
      console.log(
        `| ${name} | ${ms.toFixed(0)} | ${(ms / baseline).toFixed(2)}x | ${versusCurl} | ${target} |`,
      );
    }
  } finally {
    await service.close();
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}

/** Runs a whole process, which must end as `expected` says (a verdict's exit code included). */
function run(file: string, args: string[], expected = 0, env?: NodeJS.ProcessEnv): void {
  const result = spawnSync(file, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  if (result.status !== expected) {
    throw new Error(
      `${file} ${args.join(' ')} ended ${result.status ?? result.signal}, not ${expected}: ${result.stderr}`,
    );
  }
}

function medianMs(file: string, args: string[], expected: number, env?: NodeJS.ProcessEnv): number {
  const timed = () => {
    const started = performance.now();
    run(file, args, expected, env);
    return performance.now() - started;
  };
  timed();
  const times = Array.from({ length: RUNS }, timed).sort((a, b) => a - b);
  return ((times[RUNS / 2 - 1] ?? 0) + (times[RUNS / 2] ?? 0)) / 2;
}
