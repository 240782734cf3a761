import { describe, expect, it } from 'vitest';
import { evaluate, isSecondGeneration } from '../eval/evaluation.ts';
import { formatEvaluation } from '../eval/report.ts';
import { smallPlan } from '../eval/small-plan.ts';

describe('small evaluation (the quick version of `pnpm eval`)', () => {
  it('meets every quality, robustness and false-detection target', async () => {
    const evaluation = await evaluate(smallPlan(20261122));
    const report = formatEvaluation(evaluation);
    expect(evaluation.photos).toHaveLength(3);
    expect(evaluation.falseDetections.checked).toBe(12);
    expect(evaluation.passed, report).toBe(true);
    // Second generation (eval/attacks-v2.ts), one attack of each family: reported apart from the
    // verdict, but what the engine already meets must stay met. Perspective is still lost on the
    // small photo (0.25 MP), so only the two larger ones are required to survive it.
    const secondGeneration = new Map(
      evaluation.attacks.filter((a) => isSecondGeneration(a.attack)).map((a) => [a.attack.name, a]),
    );
    expect(secondGeneration.size).toBe(9);
    for (const [name, summary] of secondGeneration) {
      if (name === 'perspective 10%') expect(summary.recovered, report).toBeGreaterThanOrEqual(2);
      else expect(summary.recovered, `${name}\n${report}`).toBe(summary.total);
    }
  });
});
