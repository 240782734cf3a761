import { z } from 'zod';

/** A point in time as whole seconds since the Unix epoch (what the spec calls a Unix timestamp). */
export const UnixSeconds = z.int().nonnegative();
