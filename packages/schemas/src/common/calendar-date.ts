import { z } from 'zod';

/**
 * A date written `YYYY-MM-DD` that exists in the calendar.
 *
 * zod's ISO date check is not only a shape check: its pattern encodes month lengths and leap
 * years, so `2025-02-30` and `2023-02-29` are refused while `2024-02-29` passes. The tests pin
 * this down because a looser check would let impossible dates reach C2PA manifests and IPFS.
 */
export const CalendarDate = z.iso
  .date({ error: 'Expected a real calendar date written YYYY-MM-DD, e.g. 2025-02-28' })
  .meta({
    description: 'A calendar date `YYYY-MM-DD` that exists (`2025-02-30` is refused).',
    examples: ['2025-01-15'],
  });
