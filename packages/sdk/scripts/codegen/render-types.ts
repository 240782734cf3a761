import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { GENERATED_HEADER } from './typescript-text.ts';

/**
 * `paths`, `components` and `operations` types via openapi-typescript, plus one alias per
 * schema (`WatermarkJob`, `Problem`, …) so callers can name them without indexing.
 */
export async function renderTypes(document: OpenAPI3): Promise<string> {
  // openapi-typescript may annotate the object it is given; the caller's copy stays untouched.
  const nodes = await openapiTS(structuredClone(document), {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    silent: true,
  });
  return `${GENERATED_HEADER}\n${astToString(nodes)}`;
}
