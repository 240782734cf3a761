import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  ARTIFACT_PATH,
  compileProvenanceContract,
  renderArtifact,
} from '../scripts/contract-artifact.ts';

describe('the committed contract artifact', () => {
  it('is what the pinned solc makes of the Solidity source today', async () => {
    const compiled = compileProvenanceContract();
    expect(compiled.warnings).toEqual([]);
    // On a mismatch run `pnpm --filter @hallmark/chain compile` and commit the result.
    expect(renderArtifact(compiled)).toBe(await readFile(ARTIFACT_PATH, 'utf8'));
  });
});
