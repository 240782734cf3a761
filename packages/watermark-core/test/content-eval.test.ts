import { describe, expect, it } from 'vitest';
import { contentReport } from '../eval/content/content-report.ts';
import { type CaseOutcome, runContentTask } from '../eval/content/content-task.ts';
import { HONEST_FAMILY_NAMES } from '../eval/content/honest-copies.ts';

// The quick version of `pnpm eval:content`: two photos (a detailed 0.25 MP one and a smooth
// 0.5 MP dusk scene), every honest family once, transplants and one edit of each kind. Seeded,
// so a run is repeatable; what it asserts is the full evaluation's targets on this slice.
/** A bound for a hang, not a speed check: on a loaded two-core machine the slice runs for minutes. */
const HANG_MS = 600_000;

describe('content evaluation, small slice', () => {
  it(
    'accuses no honest copy, catches every transplant, finds the larger edits',
    async () => {
      const photos = ['fig-0.25mp.jpg', 'dusk-lake-0.5mp.jpg'];
      const outcomes: CaseOutcome[] = [];
      for (const [k, file] of photos.entries()) {
        outcomes.push(
          ...(await runContentTask({
            file,
            others: ['boats-0.6mp.jpg', 'moss-1mp.jpg', 'cat-0.15mp.jpg'],
            seed: 20261128 + k,
            honestPerFamily: 1,
            families: HONEST_FAMILY_NAMES,
            transplants: 4,
            editsPerKind: 1,
          })),
        );
      }
      const report = contentReport(outcomes, { honestCopies: 0, transplants: 0 }).text;
      const honest = outcomes.filter((o) => o.kind === 'honest');
      expect(honest.length).toBe(2 * HONEST_FAMILY_NAMES.length);
      // The mark is read in nearly all; none read is accused.
      expect(honest.filter((o) => o.state !== null).length, report).toBeGreaterThan(
        honest.length * 0.9,
      );
      expect(
        honest.filter((o) => o.state === 'edited' || o.state === 'differs'),
        report,
      ).toEqual([]);
      // A mark moved onto another photo is another picture; onto a reframed second shot of the
      // same scene it is at least never taken for the picture it was issued in.
      const transplants = outcomes.filter((o) => o.kind === 'transplant' && o.state !== null);
      expect(transplants.length, report).toBeGreaterThanOrEqual(6);
      for (const t of transplants) {
        if (t.family === 'another photo') expect(t.state, report).toBe('differs');
        else expect(['differs', 'edited'], report).toContain(t.state);
      }
      const large = outcomes.filter(
        (o) => o.kind === 'edit' && o.state !== null && (o.editShare ?? 0) >= 0.05,
      );
      expect(large.length, report).toBeGreaterThan(2);
      // Every larger edit is found; most are located (a recoloured region's box can be too large:
      // the full evaluation locates about four in five, see the README).
      for (const edit of large) expect(edit.state, `${edit.description}\n${report}`).toBe('edited');
      const located = large.filter((edit) => (edit.iou ?? 0) >= 0.5);
      expect(located.length / large.length, report).toBeGreaterThanOrEqual(0.75);
    },
    HANG_MS,
  );
});
