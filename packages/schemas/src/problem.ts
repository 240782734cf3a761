import { z } from 'zod';

/** One offending field of a request that failed validation. */
export const FieldError = z
  .strictObject({
    path: z.string().meta({
      description:
        'Where the field is in the request: dot-separated, array indexes in brackets (e.g. `options.watermarkType[1]`); empty for the request as a whole.',
      examples: ['options.data.creationDate'],
    }),
    message: z.string(),
  })
  .meta({ id: 'FieldError', description: 'One invalid or unknown field.' });
export type FieldError = z.infer<typeof FieldError>;

/** The per-key quotas: NFT jobs accepted per UTC day, and bytes stored (uploads and outputs). */
export const QuotaName = z.enum(['mints_per_day', 'stored_bytes', 'webhook_endpoints']);
export type QuotaName = z.infer<typeof QuotaName>;

/**
 * RFC 9457 problem details, the one error shape of the API (`application/problem+json`). The
 * `errors` extension member lists every offending field of a 400 so a client can fix them all in
 * one round trip. Deliberately not strict, unlike every other object here: RFC 9457 lets a
 * problem carry extension members and tells clients to ignore the ones they do not know.
 */
export const Problem = z
  .object({
    type: z.url().meta({
      description: 'Identifies the kind of problem; one of the stable Hallmark problem types.',
      examples: ['https://hallmark.dev/problems/validation-error'],
    }),
    title: z.string().meta({ description: 'Short summary; the same for every problem of a type.' }),
    status: z.int().min(100).max(599).meta({ description: 'The HTTP status code.' }),
    detail: z.string().optional().meta({ description: 'Explanation of this occurrence.' }),
    instance: z
      .string()
      .optional()
      .meta({ description: 'URI reference of this occurrence, e.g. the request path.' }),
    errors: z
      .array(FieldError)
      .optional()
      .meta({ description: 'Each offending field, on validation errors.' }),
    quota: QuotaName.optional().meta({
      description: 'On `quota-exceeded`: which quota of the API key was reached.',
    }),
    limit: z
      .int()
      .nonnegative()
      .optional()
      .meta({ description: 'On `quota-exceeded`: the limit of that quota.' }),
  })
  .meta({
    id: 'Problem',
    description: 'RFC 9457 problem details, sent as `application/problem+json` for every error.',
    examples: [
      {
        type: 'https://hallmark.dev/problems/validation-error',
        title: 'Request validation failed',
        status: 400,
        detail: 'The request body has 2 invalid fields.',
        instance: '/watermark',
        errors: [
          {
            path: 'options.watermarkType[0]',
            message: 'Invalid option: expected one of "invisible"|"c2pa"',
          },
          { path: 'options.colour', message: 'Unknown field' },
        ],
      },
    ],
  });
export type Problem = z.infer<typeof Problem>;
