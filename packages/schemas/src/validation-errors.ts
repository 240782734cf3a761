import type { z } from 'zod';
import type { FieldError } from './problem.ts';

/**
 * Turns a zod error into the `errors` member of a validation problem, one entry per field.
 *
 * zod reports all unknown keys of an object as a single issue; they are split here so the answer
 * names each refused field, which is what a client needs to fix its request.
 */
export function toFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: formatPath([...issue.path, key]),
        message: 'Unknown field',
      }));
    }
    return [{ path: formatPath(issue.path), message: issue.message }];
  });
}

/** `['options', 'watermarkType', 1]` becomes `options.watermarkType[1]`; `[]` becomes `''`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    const name = String(segment);
    return text === '' ? name : `${text}.${name}`;
  }, '');
}
