// Plain-text tables of an evaluation, as printed by `pnpm eval` and quoted in the README.
import type { Evaluation } from './evaluation.ts';
import { isSecondGeneration, QUALITY_TARGETS, SECOND_GENERATION_QUALITY } from './evaluation.ts';

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

const verdict = (passed: boolean) => (passed ? 'ok' : 'MISSED');

export function formatEvaluation(evaluation: Evaluation): string {
  const { photos, quality, falseDetections, plan } = evaluation;
  const megapixels = photos.map((p) => (p.width * p.height) / 1e6);
  const portrait = photos.filter((p) => p.height > p.width).length;
  const out: string[] = [];
  out.push(
    `Invisible mark evaluation: ${photos.length} photos (${Math.min(...megapixels).toFixed(2)}-${Math.max(...megapixels).toFixed(1)} MP, ${portrait} portrait), ` +
      `${plan.attacks.length} attacks, seed ${plan.seed}, ${evaluation.seconds.toFixed(0)} s`,
  );
  out.push('');
  out.push(
    'Quality of the marked file against the original (PSNR over RGB; SSIM on luma, 11x11 Gaussian window)',
  );
  out.push(
    table(
      ['photo', 'size', 'MP', 'PSNR dB', 'SSIM'],
      [
        ...photos.map((p) => [
          p.file,
          `${p.width}x${p.height}`,
          ((p.width * p.height) / 1e6).toFixed(2),
          p.psnr.toFixed(2),
          p.ssim.toFixed(4),
        ]),
        ['mean', '', '', quality.meanPsnr.toFixed(2), quality.meanSsim.toFixed(4)],
        ['min', '', '', quality.minPsnr.toFixed(2), quality.minSsim.toFixed(4)],
      ],
    ),
  );
  out.push(
    `Quality targets (PSNR mean >= ${QUALITY_TARGETS.meanPsnr} dB, every image >= ${QUALITY_TARGETS.minPsnr} dB, SSIM >= ${QUALITY_TARGETS.minSsim} on every image): ${verdict(quality.passed)}`,
  );
  const strict = SECOND_GENERATION_QUALITY;
  const below = photos.filter((p) => p.psnr < strict.minPsnr || p.ssim < strict.minSsim);
  out.push(
    `Second generation (reported apart): PSNR mean >= ${strict.meanPsnr} dB (${verdict(quality.meanPsnr >= strict.meanPsnr)}), ` +
      `every image >= ${strict.minPsnr} dB and SSIM >= ${strict.minSsim}: ${below.length === 0 ? 'ok' : `${below.length} below: ${below.map((p) => `${p.file} (${p.psnr.toFixed(2)} dB, ${p.ssim.toFixed(4)})`).join(', ')}`}`,
  );
  out.push('');
  const attackRows = (second: boolean) =>
    evaluation.attacks
      .filter((a) => isSecondGeneration(a.attack) === second)
      .map((a) => [
        a.attack.name,
        `>= ${a.attack.target}%`,
        `${a.recovered}/${a.total}`,
        `${a.rate.toFixed(1)}%`,
        verdict(a.passed),
      ]);
  const header = ['attack', 'target', 'recovered', 'rate', 'verdict'];
  out.push('Exact 64-bit payload recovery from the attacked image as it is');
  out.push(table(header, attackRows(false)));
  const second = attackRows(true);
  if (second.length > 0) {
    out.push('');
    out.push('Second generation: reported, not yet in the overall verdict');
    out.push(table(header, second));
  }
  out.push('');
  out.push('Recovery rate by size class (photos < 0.4 MP, 0.4-2 MP, > 2 MP)');
  const classes = [
    { name: '< 0.4 MP', test: (mp: number) => mp < 0.4 },
    { name: '0.4-2 MP', test: (mp: number) => mp >= 0.4 && mp <= 2 },
    { name: '> 2 MP', test: (mp: number) => mp > 2 },
  ];
  const members = classes.map((c) => photos.filter((p) => c.test((p.width * p.height) / 1e6)));
  out.push(
    table(
      ['attack', ...classes.map((c, i) => `${c.name} (${members[i]?.length ?? 0})`)],
      evaluation.attacks.map((a) => [
        a.attack.name,
        ...members.map((group) => {
          const outcomes = group.flatMap((p) =>
            p.outcomes.filter((o) => o.attack === a.attack.name),
          );
          if (outcomes.length === 0) return '-';
          const recovered = outcomes.filter((o) => o.recovered).length;
          return `${((100 * recovered) / outcomes.length).toFixed(0)}% (${recovered}/${outcomes.length})`;
        }),
      ]),
    ),
  );
  out.push('');
  out.push(
    `False detections: ${falseDetections.found.length} in ${falseDetections.checked} unmarked images ` +
      `(${photos.length} originals + ${falseDetections.checked - photos.length} random crops, resizes and re-encodes); target 0: ${verdict(falseDetections.passed)}`,
  );
  for (const found of falseDetections.found) out.push(`  false detection: ${found}`);
  const failed = photos.flatMap((p) =>
    p.outcomes.filter((o) => !o.recovered).map((o) => `${p.file} / ${o.attack}`),
  );
  if (failed.length > 0) out.push('', `Not recovered: ${failed.join('; ')}`);
  out.push('', `Overall: ${evaluation.passed ? 'every target met' : 'TARGETS MISSED'}`);
  return out.join('\n');
}
