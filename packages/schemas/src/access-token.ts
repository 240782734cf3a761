import { z } from 'zod';
import { UnixSeconds } from './common/unix-seconds.ts';

/**
 * Answer of `POST /auth/token`: a short-lived access token minted from an API key. Either the key
 * or a token works as bearer; a token stops working when it expires or when its key is revoked.
 */
export const AccessToken = z
  .strictObject({
    accessToken: z.string().meta({ description: 'Send as `Authorization: Bearer <accessToken>`.' }),
    tokenType: z.literal('Bearer'),
    expiresIn: z.int().positive().meta({ description: 'Lifetime in seconds from now.' }),
    expiresAt: UnixSeconds.meta({ description: 'Unix time at which the token stops working.' }),
  })
  .meta({ id: 'AccessToken', description: 'A short-lived access token.' });
export type AccessToken = z.infer<typeof AccessToken>;
