import { type Problem, type ProblemType, problemTypes } from '@hallmark/schemas';
import { HttpException } from '@nestjs/common';
import { ProblemException } from './problem.exception.ts';

const byStatus = new Map<number, ProblemType>(
  Object.values(problemTypes).map((type) => [type.status, type]),
);

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
 * Maps anything thrown while handling a request to a problem document. Fastify's own errors
 * (malformed JSON, body too large, unsupported Content-Type) carry `statusCode`; everything that
 * is not a known client error is an internal error whose detail is never shown to the client.
 */
export function toProblem(error: unknown, instance: string): RenderedProblem {
  if (error instanceof ProblemException) {
    return {
      body: {
        ...error.problem,
        ...(error.detail === undefined ? {} : { detail: error.detail }),
        instance,
        ...(error.errors === undefined ? {} : { errors: error.errors }),
      },
      headers: error.headers,
    };
  }
  const status = statusOf(error);
  const type = typeForStatus(status);
  const detail = status < 500 && error instanceof Error ? clientMessage(error) : undefined;
  return {
    body: { ...type, status, ...(detail === undefined ? {} : { detail }), instance },
    headers: {},
  };
}

function statusOf(error: unknown): number {
  if (error instanceof HttpException) return error.getStatus();
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 600) return statusCode;
  return 500;
}

function clientMessage(error: Error): string {
  if (error instanceof HttpException) {
    const response = error.getResponse();
    if (typeof response === 'object' && response !== null && 'message' in response) {
      const message = (response as { message: unknown }).message;
      return Array.isArray(message) ? message.join('; ') : String(message);
    }
  }
  return error.message;
}
