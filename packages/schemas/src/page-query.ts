import { z } from 'zod';

// The query of paged lists, one definition for the API's validation and the OpenAPI document.

/** `cursor` and `limit` of every paged list, to spread into a list's own query. */
export const pageQueryFields = {
  cursor: z
    .string()
    .max(200)
    .optional()
    .meta({ description: '`nextCursor` of the previous page.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(25)
    .meta({ description: 'Items per page, at most 100.' }),
};

/** The query of a list that has no filters of its own. */
export const PageQuery = z.object(pageQueryFields);
