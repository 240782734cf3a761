import { problemTypes } from '@hallmark/schemas';
import { readOpenApiDocument } from './openapi-source.ts';
import { renderClient } from './render-client.ts';
import { renderProblemTypes } from './render-problem-types.ts';
import { renderTypes } from './render-types.ts';

export interface GeneratedFile {
  /** Relative to the package root. */
  readonly path: string;
  readonly content: string;
}

/** Every generated file of the SDK, in memory: written by generate.ts, compared by the drift test. */
export async function renderGeneratedFiles(): Promise<GeneratedFile[]> {
  const document = readOpenApiDocument();
  return [
    { path: 'src/generated/openapi.ts', content: await renderTypes(document) },
    { path: 'src/generated/client.ts', content: renderClient(document) },
    { path: 'src/generated/problem-types.ts', content: renderProblemTypes(problemTypes) },
  ];
}
