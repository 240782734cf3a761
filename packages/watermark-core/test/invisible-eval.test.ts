import { describe, expect, it } from 'vitest';
import { evaluate } from '../eval/evaluation.ts';
import { formatEvaluation } from '../eval/report.ts';
import { smallPlan } from '../eval/small-plan.ts';

describe('small evaluation (the quick version of `pnpm eval`)', () => {
  it('meets every quality, robustness and false-detection target', async () => {
    const evaluation = await evaluate(smallPlan(20261122));
    const report = formatEvaluation(evaluation);
    expect(evaluation.photos).toHaveLength(3);
    expect(evaluation.falseDetections.checked).toBe(12);
    expect(evaluation.passed, report).toBe(true);
  }, 120_000);
});
