import { z } from 'zod';

/** `cursor` and `limit` of every paged list, to spread into a list's own query. */
export const pageQueryFields = {
  cursor: z.string().optional().meta({ description: '`nextCursor` of the previous page.' }),
  limit: z.coerce.number().int().min(1).max(100).optional().meta({ description: 'At most 100.' }),
};

/** The query of a list that has no filters of its own. */
export const PageQueryParams = z.object(pageQueryFields);
