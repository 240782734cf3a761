// `pnpm --filter @hallmark/cli bench`: what a call of the installed `hallmark` costs, as whole
// processes (start, module loading, work, exit), each the median of RUNS after one warm-up,
// against `node -e 0` in the same run. The input is a 0.3 MP PNG marked by `hallmark mark`.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const RUNS = 10;
const DETECT_TARGET_MS = 300;
const cli = join(import.meta.dirname, '../dist/hallmark.js');
const photo = join(import.meta.dirname, '../../../fixtures/photos/espresso-0.25mp.jpg');

const folder = await mkdtemp(join(tmpdir(), 'hallmark-cli-bench-'));
try {
  const input = join(folder, 'photo.png');
  const marked = join(folder, 'marked.png');
  // 672 x 448: 0.30 MP.
  await sharp(photo).resize(672, 448, { fit: 'cover' }).png().toFile(input);
  execFileSync(process.execPath, [cli, 'mark', input, marked, '--payload', '0123456789abcdef']);

  const commands: Array<[string, string[]]> = [
    ['node -e 0', ['-e', '0']],
    ['hallmark --help', [cli, '--help']],
    ['hallmark detect (0.3 MP PNG, marked)', [cli, 'detect', marked]],
  ];
  const medians = new Map<string, number>();
  for (const [name, args] of commands) medians.set(name, medianMs(args));
  const baseline = medians.get('node -e 0') ?? 1;
  console.log(`whole processes, median of ${RUNS} runs (after one warm-up), ${process.version}`);
  console.log('| command | ms | vs node -e 0 | target |');
  console.log('|---|---|---|---|');
  for (const [name, ms] of medians) {
    const target = name.startsWith('hallmark detect')
      ? `<= ${DETECT_TARGET_MS} ms ${ms <= DETECT_TARGET_MS ? 'ok' : 'MISSED'}`
      : '';
    console.log(`| ${name} | ${ms.toFixed(0)} | ${(ms / baseline).toFixed(2)}x | ${target} |`);
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}

function medianMs(args: string[]): number {
  const run = () => {
    const started = performance.now();
    // A detect that finds a mark exits 0; anything else fails the bench.
    execFileSync(process.execPath, args, { stdio: 'ignore' });
    return performance.now() - started;
  };
  run();
  const times = Array.from({ length: RUNS }, run).sort((a, b) => a - b);
  return ((times[RUNS / 2 - 1] ?? 0) + (times[RUNS / 2] ?? 0)) / 2;
}
