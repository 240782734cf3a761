import { HallmarkApiError } from '@hallmark/sdk';

export type Loaded<T> = { readonly data: T } | { readonly problem: string };

/**
 * A page's read of the API: a refusal (a malformed filter, say) becomes a message on the page,
 * field by field, instead of an error page.
 */
export async function load<T>(read: () => Promise<T>): Promise<Loaded<T>> {
  try {
    return { data: await read() };
  } catch (error) {
    if (!(error instanceof HallmarkApiError) || error.status >= 500 || error.status === 401)
      throw error;
    const fields = (error.problem?.errors ?? []).map((field) => `${field.path}: ${field.message}`);
    return { problem: [error.problem?.detail ?? error.message, ...fields].join(' — ') };
  }
}
