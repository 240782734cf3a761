import { readFileSync } from 'node:fs';
import type { OpenAPI3 } from 'openapi-typescript';

/** The committed document of @hallmark/schemas: the only description of the API the SDK uses. */
export const OPENAPI_PATH = new URL('../../../schemas/openapi.json', import.meta.url);

export function readOpenApiDocument(): OpenAPI3 {
  return JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));
}
