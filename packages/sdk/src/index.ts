// Public entry point of @hallmark/sdk. Runs wherever a global `fetch` exists (Node 18+,
// browsers, Deno, Bun); it imports nothing but its own files.
export { HallmarkApiError } from './errors.ts';
// HallmarkClient and the options type of each operation that takes headers.
export * from './generated/client.ts';
// Types of every schema (`WatermarkRequest`, `WatermarkJob`, `Problem`, …) and the raw
// `paths` / `components` / `operations` maps for advanced use.
export type * from './generated/openapi.ts';
export {
  type ProblemTypeName,
  type ProblemTypeUri,
  problemTypes,
} from './generated/problem-types.ts';
export type {
  FetchFunction,
  HallmarkClientOptions,
  RequestOptions,
  TokenSource,
} from './http.ts';
