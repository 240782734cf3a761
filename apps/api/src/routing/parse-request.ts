import { plainIssueMessage, problemTypes, toFieldErrors } from '@hallmark/schemas';
import type { z } from 'zod';
import { ProblemException } from '../problem/problem.exception.ts';

/**
 * Validates one part of a request against its contract schema. A failure is a 400 problem
 * whose `errors` names every offending field, each in plain words, so a client (or the person
 * at a form) can fix them all at once.
 */
export function parseRequest<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  part: 'body' | 'path' | 'headers' | 'query',
): z.infer<Schema> {
  const result = schema.safeParse(value, { error: plainIssueMessage });
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error);
  throw new ProblemException(
    problemTypes.validationError,
    `The request ${part} has ${errors.length} invalid field(s).`,
    errors,
  );
}
