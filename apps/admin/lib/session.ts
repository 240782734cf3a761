import { type AdminSession, type HallmarkAdminClient, HallmarkApiError } from '@hallmark/sdk';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { adminClient } from './api.ts';

export interface SignedIn {
  readonly client: HallmarkAdminClient;
  readonly session: AdminSession;
}

/**
 * The signed-in operator, asked of the API once per request (layout and page share it); no
 * session, or an expired one, leads to the sign-in page.
 */
export const signedIn = cache(async (): Promise<SignedIn> => {
  const client = await adminClient();
  try {
    return { client, session: await client.getSession() };
  } catch (error) {
    if (error instanceof HallmarkApiError && error.status === 401) redirect('/sign-in');
    throw error;
  }
});
