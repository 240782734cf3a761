import { z } from 'zod';

/**
 * An absolute http(s) URL. Plain `z.url()` also accepts schemes such as `javascript:` and
 * `file:`, which must never reach a client as a link to follow.
 */
export const HttpUrl = z.url({ protocol: /^https?$/, error: 'Expected an absolute http(s) URL' });
