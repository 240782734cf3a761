// The evaluation's tables, in Markdown, as README.md#video-mark quotes them.

import type { MarkedVideo, VideoMarkReading } from '../../src/video/index.ts';
import type { FalseDetections } from './false-detections.ts';
import type { Quality } from './quality.ts';

export interface AttackRead {
  readonly attack: string;
  readonly reading: VideoMarkReading;
  readonly expected: string;
}

export interface ClipResult {
  readonly clip: string;
  readonly mark: MarkedVideo;
  readonly markMs: number;
  readonly quality: Quality;
  readonly plainQuality: Quality;
  readonly reads: readonly AttackRead[];
  readonly unmarked: VideoMarkReading;
}

const table = (header: readonly string[], rows: readonly (readonly string[])[]) =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');

export function printTables(
  results: readonly ClipResult[],
  falseDetections: FalseDetections,
  seconds: number,
): void {
  const attacks = results[0]?.reads.map((r) => r.attack) ?? [];
  const attackRows = attacks.map((attack, k) => {
    const reads = results.map((r) => r.reads[k]).filter((r) => r !== undefined);
    const exact = reads.filter((r) => r.reading.payloadHex === r.expected);
    const wrong = reads.filter((r) => r.reading.found && r.reading.payloadHex !== r.expected);
    const missedClips = results
      .filter((r) => r.reads[k]?.reading.payloadHex !== r.reads[k]?.expected)
      .map((r) => r.clip);
    const confidence = exact.reduce((s, r) => s + r.reading.confidence, 0) / (exact.length || 1);
    return [
      attack,
      `${exact.length}/${reads.length} (${((100 * exact.length) / (reads.length || 1)).toFixed(0)} %)`,
      String(wrong.length),
      confidence.toFixed(2),
      missedClips.join(', '),
    ];
  });
  console.log(
    table(['attack', 'exact payload', 'wrong payload', 'mean confidence', 'missed'], attackRows),
  );
  console.log();
  const f = (v: number, d: number) => v.toFixed(d);
  const qualityRows = results.map((r) => [
    r.clip,
    `${f(r.quality.psnrMean, 2)} / ${f(r.quality.psnrMin, 2)}`,
    `${f(r.quality.ssimMean, 4)} / ${f(r.quality.ssimMin, 4)}`,
    `${f(r.plainQuality.psnrMean, 2)} / ${f(r.plainQuality.psnrMin, 2)}`,
    `${f(r.plainQuality.ssimMean, 4)} / ${f(r.plainQuality.ssimMin, 4)}`,
    f(r.mark.psnrMean ?? Number.NaN, 1),
    f(r.mark.frames / (r.markMs / 1000), 1),
  ]);
  console.log(
    table(
      [
        'clip',
        'marked PSNR-Y mean / min',
        'marked SSIM-Y mean / min',
        'unmarked encode PSNR-Y',
        'unmarked encode SSIM-Y',
        'mark alone PSNR-Y',
        'marking fps',
      ],
      qualityRows,
    ),
  );
  console.log();
  const unmarkedReads = results.filter((r) => r.unmarked.found).length;
  console.log(
    `False detections: unmarked originals read with readVideoMark: ${unmarkedReads} of ` +
      `${results.length}; unmarked windows (single frames and means of 4, 720p): ` +
      `${falseDetections.found} of ${falseDetections.windows}.`,
  );
  console.log(`${results.length} clips, ${seconds.toFixed(0)} s in all.`);
}
