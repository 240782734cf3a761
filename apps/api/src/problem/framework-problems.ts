import { type ProblemType, problemTypes } from '@hallmark/schemas';

/** What the client is told about an error the framework raised: a type and a fixed sentence. */
export interface FrameworkProblem {
  readonly problem: ProblemType;
  readonly detail: string;
}

/**
 * Errors Fastify raises before or around our handlers, by their stable `code`. The detail is
 * ours, never the framework's message: Fastify's messages quote the raw URL (query string and
 * link signature included) and JSON parse errors quote the body, which may hold a key or token.
 */
const byFastifyCode: Readonly<Record<string, FrameworkProblem>> = {
  FST_ERR_BAD_URL: {
    problem: problemTypes.badUrl,
    detail:
      'The URL path holds a malformed percent-escape (such as %zz) or bytes that are not UTF-8.',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    problem: problemTypes.uriTooLong,
    detail: 'A segment of the URL path is longer than any route accepts.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    problem: problemTypes.payloadTooLarge,
    detail: 'The request body is larger than this route accepts.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    problem: problemTypes.unsupportedMediaType,
    detail: 'This route takes an application/json body.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    problem: problemTypes.malformedRequest,
    detail: 'The body is not as long as Content-Length says.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    problem: problemTypes.validationError,
    detail: 'The body is empty although Content-Type is application/json.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    problem: problemTypes.validationError,
    detail: 'The body is not valid JSON.',
  },
};

/**
 * One answer for a path that no route serves and for a method that a known path does not serve:
 * 404, not 405 with `Allow`, because the router cannot tell the two apart without listing the
 * methods of every path (the document at /openapi.json does that).
 */
export const noRoute: FrameworkProblem = {
  problem: problemTypes.notFound,
  detail: 'No route answers this method at this path; /openapi.json lists the routes.',
};

/** The framework problem for an error, when it is one we know by its code or class. */
export function frameworkProblem(error: unknown, status: number): FrameworkProblem | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code in byFastifyCode) return byFastifyCode[code];
  // Nest's not-found handler throws a NotFoundException; its message quotes the URL.
  if (status === 404) return noRoute;
  // A parser's SyntaxError (JSON) carries status 400 and quotes the body.
  if (error instanceof SyntaxError && status === 400) {
    return byFastifyCode.FST_ERR_CTP_INVALID_JSON_BODY;
  }
  return undefined;
}
