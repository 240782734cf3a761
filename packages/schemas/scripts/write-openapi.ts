// Writes the committed openapi.json from the zod schemas. Run after any change to src/:
//   pnpm --filter @hallmark/schemas openapi:write
// The drift test in src/openapi.test.ts fails until the committed file matches.
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../src/openapi.ts';

const target = new URL('../openapi.json', import.meta.url);
writeFileSync(target, serializeOpenApiDocument(buildOpenApiDocument()));
console.log(`wrote ${target.pathname}`);
