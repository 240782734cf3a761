import type { ProblemType } from '@hallmark/schemas';
import { GENERATED_HEADER, quote } from './typescript-text.ts';

/**
 * Copies the problem catalogue of @hallmark/schemas into the SDK: the SDK may not depend on the
 * schemas package at run time (it would pull zod into browsers), yet must use the same URIs.
 */
export function renderProblemTypes(catalogue: Readonly<Record<string, ProblemType>>): string {
  const entries = Object.entries(catalogue).map(
    ([name, problem]) =>
      `  ${name}: {\n    type: ${quote(problem.type)},\n    title: ${quote(problem.title)},\n    status: ${problem.status},\n  },\n`,
  );
  return `${GENERATED_HEADER}
/**
 * The stable problem types of the Hallmark API (RFC 9457 \`type\`). Branch on them, e.g.
 * \`error.type === problemTypes.notFound.type\`, rather than on titles or messages.
 */
export const problemTypes = {
${entries.join('')}} as const;

export type ProblemTypeName = keyof typeof problemTypes;
export type ProblemTypeUri = (typeof problemTypes)[ProblemTypeName]['type'];
`;
}
