import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ARTIFACT_PATH, compileProvenanceContract, renderArtifact } from './contract-artifact.ts';

// `pnpm --filter @hallmark/chain compile`: rewrites src/generated/hallmark-provenance.ts.
const started = performance.now();
const compiled = compileProvenanceContract();
for (const warning of compiled.warnings) console.warn(warning);
await mkdir(dirname(ARTIFACT_PATH), { recursive: true });
await writeFile(ARTIFACT_PATH, renderArtifact(compiled));
console.log(
  `compiled with solc ${compiled.compilerVersion} in ${Math.round(performance.now() - started)} ms: ${ARTIFACT_PATH}`,
);
