import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { Problem } from '../problem.ts';
import { type ProblemType, problemTypes } from '../problem-types.ts';

/** An error answer of one operation: which problem type, and when this operation sends it. */
export interface ProblemCase {
  readonly problem: ProblemType;
  readonly when: string;
}

/**
 * Documents each error of an operation as `application/problem+json`, keyed by status, with an
 * example carrying the exact problem `type` so readers of the document see the stable URIs.
 * A `default` entry covers the 500 and 503 that any operation can answer.
 */
export function problemResponses(cases: readonly ProblemCase[]): Record<string, ResponseConfig> {
  // Several problem types may share a status (two kinds of 409): one response lists them all.
  const byStatus = new Map<number, ProblemCase[]>();
  for (const problemCase of cases) {
    const status = problemCase.problem.status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), problemCase]);
  }
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, shared] of byStatus) {
    responses[String(status)] = problemResponse(
      shared
        .map(({ problem, when }) => `${problem.title} (\`${slugOf(problem)}\`): ${when}`)
        .join(' '),
      shared.map(({ problem }) => problem),
    );
  }
  Object.assign(responses, httpLayerResponses);
  responses.default = problemResponse(
    'Unexpected failure (`internal`, 500), or a dependency is down (`service-unavailable`, 503).',
    [problemTypes.internal, problemTypes.serviceUnavailable],
  );
  return responses;
}

function problemResponse(description: string, problems: readonly ProblemType[]): ResponseConfig {
  const examples = Object.fromEntries(
    problems.map((problem) => [
      slugOf(problem),
      { value: { type: problem.type, title: problem.title, status: problem.status } },
    ]),
  );
  return {
    description,
    ...(problems.some((problem) => problem.status === 429) ? { headers: retryAfterHeader } : {}),
    content: { 'application/problem+json': { schema: Problem, examples } },
  };
}

/** `https://hallmark.dev/problems/not-found` becomes `not-found`. */
function slugOf(problem: ProblemType): string {
  return problem.type.slice(problem.type.lastIndexOf('/') + 1);
}

const retryAfterHeader = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer' as const, minimum: 0 },
  },
};

/** Public operations count against the caller's address (RATE_LIMIT_ANONYMOUS_PER_MINUTE). */
export const anonymousRateLimitResponse: Record<string, ResponseConfig> = {
  '429': problemResponse(
    'Too many requests from this address without a valid API key (`rate-limited`); wait `Retry-After` seconds.',
    [problemTypes.rateLimited],
  ),
};

/** The quota cases of operations that store or queue something for the key. */
export const storageQuotaCase: ProblemCase = {
  problem: problemTypes.quotaExceeded,
  when: 'the key stores as many bytes as its quota allows (`quota: stored_bytes`, `limit`).',
};

/** The cases every authenticated operation shares. */
export const authenticatedCases: readonly ProblemCase[] = [
  { problem: problemTypes.unauthorized, when: 'the bearer token is missing, unknown or expired.' },
  {
    problem: problemTypes.rateLimited,
    when: 'too many requests with this key, or too many failed authentications from this address; wait `Retry-After` seconds.',
  },
];

/**
 * What the HTTP layer answers for any operation before its route runs, as one `4XX` entry (an
 * operation's own statuses above take precedence for theirs).
 */
export const httpLayerResponses: Record<string, ResponseConfig> = {
  '4XX': problemResponse(
    'Refused before the operation runs: a malformed percent-escape in the path (`bad-url`, 400), a forbidden byte in a header or malformed framing (`malformed-request`, 400), a method this path does not serve (`not-found`, 404, as for an unknown path), a body not received in time (`request-timeout`, 408), a body too large (`payload-too-large`, 413), a path segment too long (`uri-too-long`, 414), a body that is not JSON (`unsupported-media-type`, 415), headers over 16 KiB (`header-fields-too-large`, 431).',
    [
      problemTypes.badUrl,
      problemTypes.malformedRequest,
      problemTypes.requestTimeout,
      problemTypes.payloadTooLarge,
      problemTypes.uriTooLong,
      problemTypes.headerFieldsTooLarge,
    ],
  ),
};

/** The answers of a page of a list without filters; `access` are the refusals of its callers. */
export function pageAnswers<Schema extends ZodType>(
  schema: Schema,
  access: readonly ProblemCase[],
) {
  return {
    200: { description: 'A page.', content: { 'application/json': { schema } } },
    ...problemResponses([
      { problem: problemTypes.validationError, when: 'a malformed query or cursor.' },
      ...access,
    ]),
  };
}
