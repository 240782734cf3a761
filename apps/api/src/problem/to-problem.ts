import { type Problem, type ProblemType, problemTypes } from '@hallmark/schemas';
import { HttpException } from '@nestjs/common';
import { frameworkProblem } from './framework-problems.ts';
import { ProblemException } from './problem.exception.ts';

// The first type of each status in the catalogue is its general one (400 validation-error,
// not bad-url), hence first wins.
const byStatus = new Map<number, ProblemType>();
for (const type of Object.values(problemTypes)) {
  if (!byStatus.has(type.status)) byStatus.set(type.status, type);
}

/** The catalogued type for an HTTP status; unknown 4xx become validation errors, 5xx internal. */
function typeForStatus(status: number): ProblemType {
  return (
    byStatus.get(status) ?? (status < 500 ? problemTypes.validationError : problemTypes.internal)
  );
}

export interface RenderedProblem {
  body: Problem;
  headers: Record<string, string>;
}

/**
 * Maps anything thrown while handling a request to a problem document. Our handlers throw
 * ProblemException, whose detail is written for the client. Everything else (Fastify's own errors:
 * bad URL, malformed JSON, body too large, unsupported Content-Type; Nest's 404) gets a type and a
 * detail of ours, never its message, which may quote the URL's query or the body. Anything that is
 * not a client error is an internal error whose detail is never shown.
 */
export function toProblem(error: unknown, instance: string): RenderedProblem {
  if (error instanceof ProblemException) {
    return {
      body: {
        ...error.problem,
        ...(error.detail === undefined ? {} : { detail: error.detail }),
        instance,
        ...(error.errors === undefined ? {} : { errors: error.errors }),
        ...error.extensions,
      },
      headers: error.headers,
    };
  }
  const status = statusOf(error);
  const known = status < 500 ? frameworkProblem(error, status) : undefined;
  if (known !== undefined) {
    return {
      body: { ...known.problem, detail: known.detail, instance },
      headers: {},
    };
  }
  return { body: { ...typeForStatus(status), status, instance }, headers: {} };
}

function statusOf(error: unknown): number {
  if (error instanceof HttpException) return error.getStatus();
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 600) return statusCode;
  return 500;
}
