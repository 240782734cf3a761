import type { z } from 'zod';

/**
 * The message of a failed check in words a person filling a form understands ("Use at most 200
 * characters." rather than "Too big: expected string to have <=200 characters"): the console shows
 * these beside its fields, and API clients get the same. Passed as the per-parse error map, so a
 * message a schema sets itself (an address's format, a date that does not exist) still wins.
 * Undefined leaves zod's own message for the rarer checks.
 */
export function plainIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'Required.';
      if (issue.expected === 'int') return 'Enter a whole number.';
      if (issue.expected === 'number') return 'Enter a number.';
      if (issue.expected === 'string') return 'Enter text.';
      if (issue.expected === 'boolean') return 'Enter true or false.';
      if (issue.expected === 'array') return 'Enter a list.';
      return undefined;
    case 'too_small':
      return tooSmall(issue.origin, Number(issue.minimum), issue.inclusive !== false);
    case 'too_big':
      return tooBig(issue.origin, Number(issue.maximum), issue.inclusive !== false);
    case 'invalid_format':
      if (issue.format === 'email') return 'Enter an email address, such as name@example.com.';
      if (issue.format === 'uuid' || issue.format === 'guid') return 'Not a valid id.';
      if (issue.format === 'url') return 'Enter a full web address, starting with https://.';
      return undefined;
    case 'invalid_value':
      return `Choose one of: ${issue.values.map(String).join(', ')}.`;
    default:
      return undefined;
  }
}

function tooSmall(origin: string, minimum: number, inclusive: boolean): string | undefined {
  // A trimmed text field left empty (or only spaces) is a missing answer, not a short one.
  if (origin === 'string')
    return minimum <= 1 ? 'Required.' : `Use at least ${minimum} characters.`;
  if (origin === 'number' || origin === 'int') {
    return inclusive ? `Enter ${minimum} or more.` : `Enter more than ${minimum}.`;
  }
  if (origin === 'array' || origin === 'set') {
    return minimum === 1 ? 'Choose at least one.' : `Choose at least ${minimum}.`;
  }
  return undefined;
}

function tooBig(origin: string, maximum: number, inclusive: boolean): string | undefined {
  if (origin === 'string') return `Use at most ${maximum} characters.`;
  if (origin === 'number' || origin === 'int') {
    return inclusive ? `Enter ${maximum} or less.` : `Enter less than ${maximum}.`;
  }
  if (origin === 'array' || origin === 'set') return `Choose at most ${maximum}.`;
  return undefined;
}
