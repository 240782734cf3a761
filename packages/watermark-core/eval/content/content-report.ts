// The content evaluation's tables and targets (docs: the package README's "Content" section).
import type { CaseOutcome } from './content-task.ts';

export interface ContentTargets {
  readonly honestCopies: number;
  readonly transplants: number;
}

export interface ContentReport {
  readonly text: string;
  readonly passed: boolean;
}

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} %`);
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const accused = (o: CaseOutcome) => o.state === 'edited' || o.state === 'differs';
/** An edit found where it is: `content_edited` with a region of IoU >= 0.5 against it. */
export const caught = (o: CaseOutcome) => o.state === 'edited' && (o.iou ?? 0) >= 0.5;

export function contentReport(
  outcomes: readonly CaseOutcome[],
  targets: ContentTargets,
): ContentReport {
  const lines: string[] = [];
  const failures: string[] = [];
  const honest = outcomes.filter((o) => o.kind === 'honest');
  const families = [...new Set(honest.map((o) => o.family))];
  lines.push('Honest copies (never accused: no content_edited, no mismatch)', '');
  lines.push(
    `${pad('copy', 26)}${pad('copies', 8)}${pad('mark read', 11)}${pad('same', 8)}${pad('not compared', 14)}accused`,
  );
  for (const family of families) {
    const rows = honest.filter((o) => o.family === family);
    const read = rows.filter((o) => o.state !== null);
    lines.push(
      `${pad(family, 26)}${pad(rows.length, 8)}${pad(read.length, 11)}${pad(read.filter((o) => o.state === 'same').length, 8)}${pad(read.filter((o) => o.state === 'not_compared').length, 14)}${read.filter(accused).length}`,
    );
  }
  const honestRead = honest.filter((o) => o.state !== null);
  const honestAccused = honestRead.filter(accused);
  lines.push(
    `${pad('all', 26)}${pad(honest.length, 8)}${pad(honestRead.length, 11)}${pad(honestRead.filter((o) => o.state === 'same').length, 8)}${pad(honestRead.filter((o) => o.state === 'not_compared').length, 14)}${honestAccused.length}`,
  );
  for (const o of honestAccused.slice(0, 20))
    lines.push(
      `  accused: ${o.photo}: ${o.description} -> ${o.state} ${JSON.stringify(o.measures)}`,
    );
  if (honestAccused.length > 0) failures.push(`${honestAccused.length} honest copies accused`);
  if (honestRead.length < targets.honestCopies)
    failures.push(`only ${honestRead.length} honest copies read (target ${targets.honestCopies})`);

  const transplants = outcomes.filter((o) => o.kind === 'transplant');
  const tRead = transplants.filter((o) => o.state !== null);
  lines.push('', 'Transplants (the mark added to another picture: mismatch)', '');
  lines.push(`${pad('host', 26)}${pad('forged', 8)}${pad('mark read', 11)}mismatch`);
  for (const family of [...new Set(transplants.map((o) => o.family))]) {
    const rows = tRead.filter((o) => o.family === family);
    lines.push(
      `${pad(family, 26)}${pad(transplants.filter((o) => o.family === family).length, 8)}${pad(rows.length, 11)}${pct(rows.filter((o) => o.state === 'differs').length, rows.length)}`,
    );
  }
  const passedOff = tRead.filter((o) => o.state !== 'differs');
  lines.push(
    `${pad('all', 26)}${pad(transplants.length, 8)}${pad(tRead.length, 11)}${pct(tRead.length - passedOff.length, tRead.length)}`,
  );
  for (const o of passedOff.slice(0, 10))
    lines.push(
      `  passed: ${o.photo}: ${o.description} -> ${o.state} ${JSON.stringify(o.measures)}`,
    );
  if (passedOff.length > 0) failures.push(`${passedOff.length} transplants not caught`);
  if (tRead.length < targets.transplants)
    failures.push(`only ${tRead.length} transplants read (target ${targets.transplants})`);

  const edits = outcomes.filter(
    (o) => o.kind === 'edit' && o.state !== null && (o.editShare ?? 0) > 0,
  );
  lines.push('', 'Local edits (content_edited with a region of IoU >= 0.5 against the edit)', '');
  lines.push(
    `${pad('edited share', 26)}${pad('edits', 8)}${pad('edited', 11)}${pad('located', 10)}target`,
  );
  const bands: [string, number, number, number | null][] = [
    ['1-2 %', 0, 0.02, null],
    ['2-5 %', 0.02, 0.05, 80],
    ['5-25 %', 0.05, 1, 95],
  ];
  for (const [label, low, high, target] of bands) {
    const rows = edits.filter((o) => (o.editShare ?? 0) >= low && (o.editShare ?? 0) < high);
    const located = rows.filter(caught).length;
    lines.push(
      `${pad(label, 26)}${pad(rows.length, 8)}${pad(pct(rows.filter((o) => o.state === 'edited').length, rows.length), 11)}${pad(pct(located, rows.length), 10)}${target === null ? '-' : `>= ${target} %`}`,
    );
    if (target !== null && rows.length > 0 && (100 * located) / rows.length < target) {
      failures.push(`edits of ${label}: ${pct(located, rows.length)} located (target ${target} %)`);
    }
  }
  lines.push('', `${pad('edit kind', 26)}${pad('edits', 8)}${pad('edited', 11)}located`);
  for (const family of [...new Set(edits.map((o) => o.family))]) {
    const rows = edits.filter((o) => o.family === family && (o.editShare ?? 0) >= 0.02);
    lines.push(
      `${pad(`${family} (>= 2 %)`, 26)}${pad(rows.length, 8)}${pad(pct(rows.filter((o) => o.state === 'edited').length, rows.length), 11)}${pct(rows.filter(caught).length, rows.length)}`,
    );
  }
  const missed = edits.filter((o) => (o.editShare ?? 0) >= 0.02 && !caught(o));
  for (const o of missed.slice(0, 15))
    lines.push(
      `  missed: ${o.photo}: ${o.description} (${((o.editShare ?? 0) * 100).toFixed(1)} %) -> ${o.state}, IoU ${(o.iou ?? 0).toFixed(2)} ${JSON.stringify(o.measures)}`,
    );

  type Measures = NonNullable<CaseOutcome['measures']>;
  const quantiles = (
    rows: readonly CaseOutcome[],
    measure: (m: Measures) => number,
    digits = 2,
  ) => {
    const values = rows
      .flatMap((o) => (o.measures === undefined ? [] : [measure(o.measures)]))
      .sort((a, b) => a - b);
    if (values.length === 0) return '-';
    const at = (q: number) =>
      (values[Math.min(values.length - 1, Math.floor(q * values.length))] as number).toFixed(
        digits,
      );
    return `min ${at(0)}, 1 % ${at(0.01)}, 10 % ${at(0.1)}, median ${at(0.5)}, 90 % ${at(0.9)}, 99 % ${at(0.99)}, max ${at(1)}`;
  };
  const secondShots = tRead.filter((o) => o.family === 'second shot');
  const correlation = (m: Measures) => m.correlation;
  const locked = (m: Measures) => m.locked;
  const scaleDrift = (m: Measures) => Math.abs(m.scaleDrift) * 100;
  lines.push('', 'detail correlation where the copy agrees:');
  lines.push(`  honest copies: ${quantiles(honestRead, correlation)}`);
  lines.push(`  transplants:   ${quantiles(tRead, correlation)}`);
  lines.push(`  edits:         ${quantiles(edits, correlation)}`);
  lines.push('', 'share of detailed patches in place:');
  lines.push(`  honest copies: ${quantiles(honestRead, locked)}`);
  lines.push(`  second shots:  ${quantiles(secondShots, locked)}`);
  lines.push('', "the alignment's correction to the mark's scale (%):");
  lines.push(`  honest copies: ${quantiles(honestRead, scaleDrift)}`);
  lines.push(`  second shots:  ${quantiles(secondShots, scaleDrift)}`);
  // The mark's strength where the content's correction puts it against at its geometry: only the
  // copies whose correction was large enough to check (compare.ts, markLeftBehind).
  const probed = (rows: readonly CaseOutcome[]) =>
    rows.filter((o) => o.measures?.markAtMark !== undefined);
  const follows = (m: Measures) => (m.markAtContent ?? 0) / Math.max(1e-9, m.markAtMark ?? 0);
  const markAtMark = (m: Measures) => m.markAtMark ?? 0;
  lines.push('', "the mark's strength where the content lies / at its geometry (checked copies):");
  lines.push(
    `  honest copies (${probed(honestRead).length}): ${quantiles(probed(honestRead), follows)}`,
  );
  lines.push(
    `  second shots (${probed(secondShots).length}): ${quantiles(probed(secondShots), follows)}`,
  );
  lines.push("the mark's strength at its geometry (z), same copies:");
  lines.push(`  honest copies: ${quantiles(probed(honestRead), markAtMark, 1)}`);
  lines.push(`  second shots:  ${quantiles(probed(secondShots), markAtMark, 1)}`);
  // Copies whose evidence fell short of certain: how much better the detail followed at the best
  // other zoom than at the mark's (compare.ts, clearlyBetter).
  const searched = (rows: readonly CaseOutcome[]) =>
    rows.filter((o) => o.measures?.atZoom !== undefined);
  const zoomGain = (m: Measures) => (m.atZoom?.correlation ?? 0) - m.correlation;
  lines.push(
    '',
    "detail correlation at the best other zoom minus at the mark's (searched copies):",
  );
  lines.push(
    `  honest copies (${searched(honestRead).length}): ${quantiles(searched(honestRead), zoomGain)}`,
  );
  lines.push(`  edits (${searched(edits).length}): ${quantiles(searched(edits), zoomGain)}`);
  lines.push(
    `  second shots (${searched(secondShots).length}): ${quantiles(searched(secondShots), zoomGain)}`,
  );
  const times = outcomes
    .filter((o) => o.state !== null)
    .map((o) => o.millis)
    .sort((a, b) => a - b);
  lines.push(
    '',
    `verification (mark + content) per copy: median ${times[times.length >> 1] ?? 0} ms, 95th percentile ${times[Math.floor(times.length * 0.95)] ?? 0} ms`,
  );
  lines.push(
    '',
    failures.length === 0 ? 'All content targets met.' : `Missed: ${failures.join('; ')}`,
  );
  return { text: lines.join('\n'), passed: failures.length === 0 };
}
