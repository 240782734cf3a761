// `pnpm --filter @hallmark/watermark-core bench`: runs every benchmark of the package once and
// prints one table. Each time is compared with a baseline measured in the same run (a ratio),
// because these machines are too noisy for absolute numbers. Exits 1 when a target is missed.
import { readdir } from 'node:fs/promises';
import type { BenchRow } from './types.ts';

const suites = (await readdir(import.meta.dirname))
  .filter((file) => file.endsWith('.bench.ts'))
  .sort();
const rows: BenchRow[] = [];
for (const suite of suites) {
  const module = (await import(`./${suite}`)) as { bench: () => Promise<BenchRow[]> };
  rows.push(...(await module.bench()));
}

const header = ['benchmark', 'ms', 'baseline', 'baseline ms', 'ratio', 'target', 'note'];
const lines = rows.map((row) => {
  const ratio = row.ms / row.baselineMs;
  const verdict = row.target === undefined ? '' : ratio <= row.target ? ' ok' : ' MISSED';
  return [
    row.name,
    row.ms.toFixed(1),
    row.baseline,
    row.baselineMs.toFixed(1),
    `${ratio.toFixed(2)}x`,
    row.target === undefined ? '' : `<= ${row.target}x${verdict}`,
    row.note ?? '',
  ];
});
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
const format = (cells: string[]) =>
  `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
console.log(format(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const line of lines) console.log(format(line));
process.exitCode = rows.some((r) => r.target !== undefined && r.ms / r.baselineMs > r.target)
  ? 1
  : 0;
