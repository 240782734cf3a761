import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The committed file is read instead of rebuilt from the schemas so that what the API serves is
// exactly what the SDK was generated from; a drift test keeps the file equal to the schemas.
const require = createRequire(import.meta.url);
export const openApiDocument: Record<string, unknown> = JSON.parse(
  readFileSync(require.resolve('@hallmark/schemas/openapi.json'), 'utf8'),
);
