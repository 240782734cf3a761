import { z } from 'zod';

/** A point in time as whole seconds since the Unix epoch (a Unix timestamp). */
export const UnixSeconds = z.int().nonnegative();
