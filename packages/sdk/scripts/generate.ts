// Regenerates src/generated/ from packages/schemas/openapi.json and the problem catalogue of
// @hallmark/schemas (read from its source through the `source` export condition, so no build is
// needed). Run after `pnpm --filter @hallmark/schemas openapi:write`:
//   pnpm --filter @hallmark/sdk generate
// test/generated.test.ts fails until the committed files match.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderGeneratedFiles } from './codegen/generated-files.ts';

const packageRoot = new URL('../', import.meta.url);

for (const file of await renderGeneratedFiles()) {
  const target = fileURLToPath(new URL(file.path, packageRoot));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, file.content);
  console.log(`wrote ${file.path}`);
}
